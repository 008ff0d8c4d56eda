import { passageTerms } from '../knowledge/sentences';
import { looksEnglish, terms } from '../knowledge/text';
import type { Passage } from '../knowledge/types';
import { asksForStaffCode, speaksOfStaffCode } from './staff-code';
import { asksTheBusiness } from './unknown-subject';

/**
 * Questions a help centre answers only when it says so itself, and that the nearest article
 * otherwise answers wrongly (a list of today's prices reads as "no change coming"; the general
 * pricing page reads as "yes, there is a deal for you"):
 *
 * - whether a price or an offer is about to change ("Are your prices going up any time soon?",
 *   "Will the Pro plan get more expensive next year?", "a friend said the referral reward is
 *   about to get bigger"): answered from the articles only when one of them announces a change
 *   (a date it takes effect, "will increase");
 * - whether there is a deal for a group the articles never name ("Do you offer a discount for
 *   students?", "any trade-in deal?"): the group's words must be in a public passage that speaks
 *   of a deal or a price; and
 *   whether there is a deal at all ("Do you have a promo code at the moment?") where no public
 *   article speaks of one (a promo code only in an AI-disabled article); and
 * - a code the business's own people use (rules/staff-code.ts): answered only where a public
 *   article speaks of one.
 *
 * A customer's own change ("I'm about to change my plan: will my price go up?") names no time
 * ahead and is answered as usual. Only English messages are judged, as for unknown names.
 */
export const unannounced = (message: string, passages: () => readonly Passage[]): boolean => {
  if (asksAheadOfTime(message) && !passages().some((p) => ANNOUNCED.test(p.text))) return true;
  if (asksForADeal(message) && !passages().some((p) => OFFERS_A_DEAL.test(p.text))) return true;
  if (asksForStaffCode(message) && !passages().some((p) => speaksOfStaffCode(p.text))) return true;
  // The group must be named where a deal or a price is: "at most 8 students on a course" offers students nothing (the fifteenth centre).
  const named = dealAskedFor(message);
  return named.some((t) => !passages().some((p) => passageTerms(p).has(t) && PRICED.test(`${p.title} ${p.heading ?? ''} ${p.text}`)));
};

/** Whether the message asks the business whether it has a deal of any kind ("Do you have a promo code at the moment?"). */
export const asksForADeal = (message: string): boolean => looksEnglish(message) && asksTheBusiness(message) && ASKS_DEAL.test(message);

/** Whether the message asks if a price or an offer will change, some time ahead. */
export const asksAheadOfTime = (message: string): boolean => looksEnglish(message) && CHANGE_AHEAD.some((re) => re.test(message));

/**
 * The words naming who or what a deal is asked for ("students" in "a discount for students",
 * "trade-in" in "a trade-in deal"), as index terms; empty when the message asks the business
 * for no deal.
 */
export const dealAskedFor = (message: string): string[] => {
  if (!looksEnglish(message)) return [];
  const asked = asksTheBusiness(message) ? [...message.matchAll(DEAL_FOR), ...message.matchAll(NAMED_DEAL)] : [];
  const named = [...asked, ...message.matchAll(GROUP_DEAL)].map((m) => m[1]);
  return named.flatMap((words) => terms(words)).filter((t) => !GENERIC.has(t));
};

const CHANGE = String.raw`(?:go(?:es|ing)?\s+up|ris(?:e|es|ing)|increas(?:e|es|ing)|rais(?:e|es|ing)|hik(?:e|es|ing)|get(?:s|ting)?\s+(?:bigger|smaller|more\s+expensive|cheaper|pricier|higher|lower)|become\s+(?:more\s+expensive|cheaper))`;
const OFFER = String.raw`(?:price|prices|pricing|cost|costs|fee|fees|rate|rates|plan|plans|subscription|membership|reward|rewards|bonus|discount|offer|credit)`;
/** A time ahead, as a customer names it vaguely ("soon", "next year"), or a plan for one. */
const AHEAD = String.raw`(?:soon|next\s+(?:year|month|week|quarter|season)|this\s+year|later\s+this|in\s+the\s+future|upcoming|planning\s+to|plans?\s+to|about\s+to|going\s+to)`;
const CHANGE_AHEAD = [
  // "raise the price of Plus soon", "prices going up any time soon", "the plan get more expensive next year"
  new RegExp(String.raw`\b${OFFER}\b(?:\W+\w+){0,4}?\W+${CHANGE}\b.*\b${AHEAD}\b`, 'is'),
  new RegExp(String.raw`\b${CHANGE}\b(?:\W+\w+){0,4}?\W+${OFFER}\b.*\b${AHEAD}\b`, 'is'),
  // "planning to raise the price", "about to get bigger"
  new RegExp(String.raw`\b(?:planning|plans?|about|going)\s+to\s+${CHANGE}\b`, 'i'),
];
const MONTH = '(?:january|february|march|april|may|june|july|august|september|october|november|december)';
/**
 * "From 1 March 2027", "starting in January", "will increase", "a price change": an article
 * saying what is coming. Not "any price change": "We tell you at least 30 days before any price
 * change" is a policy, and it answered "I heard your prices are going up in January…" with
 * today's prices (an outsider's parcel-locker centre).
 */
const ANNOUNCED = new RegExp(
  String.raw`\b(?:from|starting(?:\s+(?:on|in))?|as\s+of|effective(?:\s+from)?)\s+(?:\d{1,2}\s+)?${MONTH}\b|\bwill\s+(?:increase|rise|go\s+up|change)\b|(?<!\bany\s+)\b(?:price|fee)\s+(?:increase|change|rise)s?\b`,
  'i',
);
const DEAL = String.raw`(?:discounts?|deals?|concessions?|promo(?:tion)?s?|coupons?|special\s+(?:prices?|rates?|offers?)|reduced\s+(?:prices?|rates?))`;
const ASKS_DEAL = new RegExp(String.raw`\b${DEAL}`, 'i');
/** An article speaking of a deal at all: "20% off", "save $10", a discount, a promo code, a coupon ("Save", a button, is none). */
const OFFERS_A_DEAL = new RegExp(String.raw`\b${DEAL}|\d\s?%\s+off\b|\bsav(?:e|es|ing)\s+(?:up\s+to\s+)?[$€£]?\d|\bsavings?\b`, 'i');
/** A passage that could give a group a deal: it speaks of one, or of a price, a share or "free" ("Students pay £10", "free for students"). */
const PRICED = new RegExp(
  String.raw`${OFFERS_A_DEAL.source}|[$€£¥]\s?\d|\d\s?(?:%|[$€£¥]|dollars?|euros?|pounds?)|\bfree\b|\bprices?\b|\bcosts?\b|\bpay\b`,
  'i',
);
/** "a discount for students", "any deal for teachers or nurses": the word or two after it (stop words drop out). */
const DEAL_FOR = new RegExp(String.raw`\b${DEAL}\s+(?:for|to)\s+([\p{L}-]+(?:\s+[\p{L}-]+)?)`, 'giu');
/** "a student discount", "a trade-in deal". */
const NAMED_DEAL = new RegExp(String.raw`([\p{L}-]+)\s+${DEAL}\b`, 'giu');
/** The group as the question's subject: "Do students get a cheaper fare?", "Do seniors pay less on the ferry?" ("Do you have a discount?" names none: "you" is a stop word). */
const GROUP_DEAL = new RegExp(
  String.raw`\b(?:do|does|can|could|will|would)\s+([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+(?:get|pay|have|receive|qualify\s+for)\s+(?:(?:a|an|any)\s+)?(?:${DEAL}|less\b|(?:cheaper|lower|reduced|special)\s+(?:fares?|prices?|rates?|tickets?)\b)`,
  'giu',
);
/** Words that name no group: "any special deal", "a better deal", "a bundle deal" is still judged by its word. */
const GENERIC = new Set(terms('special better best good great cheap cheaper big bigger new current other'));
