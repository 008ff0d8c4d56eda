import { looksEnglish } from '../knowledge/text';

/**
 * A customer asking for a code the business's own people use ("What's the override code staff
 * use to approve a reprint?", "Is there a code you can put in on your side to cancel that
 * fee?", "Don't your agents have some code to push it through?"). Such a code is in an internal
 * article if anywhere, and the nearest public article (the fee, the door, the refund window)
 * answers something else as if it were the answer. The customer gets "I don't know" (a person,
 * when escalation is on), unless a public article itself speaks of such a code.
 *
 * The customer's own codes ("my code to get in", "the QR code", "a PIN for the keypad", "the
 * login code") are not asked of anyone but the customer, and are answered as usual. Only English
 * messages are judged, as for the other rules on what a centre never says.
 */
export const asksForStaffCode = (message: string): boolean => looksEnglish(message) && STAFF_CODE.some((re) => re.test(message));

/** Whether a public passage speaks of a staff-side code itself ("Our agents cannot share override codes."). */
export const speaksOfStaffCode = (text: string): boolean => NAMED.test(text) || CODE_TO_WAIVE.test(text);

/** Not a password: "Does the front desk have the Wi-Fi password?" asks for what a customer may be told. */
const CODE = String.raw`(?:codes?|pins?)`;
/**
 * Someone on the business's side: its staff, support, agents, the counter (not the front desk,
 * which hands customers their own codes); "you" only as "you guys" or "on your side"; never the
 * customer's own people ("my team").
 */
const STAFF = String.raw`(?<!\b(?:my|our|his|her|their)\s+)(?:(?:your\s+|the\s+)?(?:staff|support(?:\s+(?:people|team|staff|agents?|desk))?|agents?|team|employees?|colleagues|reps?|representatives?|counter)|you\s+guys|you\s+all)`;
/** What they do with the code: have it, use it, type or put it in, apply it. */
const USES = String.raw`(?:(?:can|could|would|might)\s+)?(?:have|has|got|keep|keeps|use|uses|used|type|types|punch|punches|enter|enters|put|puts|apply|applies)`;
const NAMED = new RegExp(String.raw`\b(?:override|overrides|waiver|bypass|staff|employee|agent|internal|admin|master|secret)\s+${CODE}\b`, 'i');
/** A code to waive, override or push something through: what staff do, never a customer's own code. */
const CODE_TO_WAIVE = new RegExp(
  String.raw`\b${CODE}\b(?:\W+\w+){0,6}?\W+(?:to\s+)?(?:waive|waives|override|overrides|bypass|push\s+(?:it|this|that|them)\s+through|cancel(?:s)?\s+(?:the|that|this|my|a)\s+(?:\w+\s+)?(?:fee|fine|charge|penalty))\b`,
  'i',
);
const STAFF_CODE = [
  NAMED,
  CODE_TO_WAIVE,
  // "the code your support people use", "a credit code you guys can apply", "What code does the counter type in"
  new RegExp(String.raw`\b${CODE}\b(?:\W+\w+){0,3}?\W+${STAFF}\s+${USES}\b`, 'i'),
  new RegExp(String.raw`\b${CODE}\b\s+(?:does|do|did|can|could|would|will)\s+${STAFF}\s+\w+`, 'i'),
  // "your staff have a code", "Don't your agents have some code"
  new RegExp(String.raw`\b${STAFF}\s+${USES}\s+(?:\w+\s+){0,2}?${CODE}\b`, 'i'),
  // "a code you can put in on your side"
  new RegExp(String.raw`\b${CODE}\b.*\bon\s+your\s+(?:side|end)\b`, 'i'),
];
