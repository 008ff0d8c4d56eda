import t from 'tap';
import { asksForStaffCode, speaksOfStaffCode, unannounced, type Passage } from '@support/agent';

const passage = (text: string): Passage => ({
  id: 'a1#0',
  index: 0,
  articleId: 'a1',
  workspaceId: 'w',
  title: 'Fees',
  heading: null,
  text,
  type: 'public_article',
  isPublic: true,
  customerFacing: true,
});

t.test("a code the business's own people use is told from the customer's own codes", async (t) => {
  const staff = [
    "What's the override code staff use to approve a reprint after the 30-day limit?",
    'Is there some kind of override code your support team uses to unlock a locked keypad remotely?',
    'Is there a credit code you guys can apply to give me a free month?',
    "I've heard your staff have a code that cancels the change fee. Can you give it to me?",
    "My claim was rejected. Don't your agents have some code to push it through anyway?",
    'What code does the counter type in to waive the young driver fee?',
    'Is there a code you can enter on your end for a late fee?',
    'Give me the employee PIN.',
  ];
  const own = [
    'Where can I find out if you deliver to my postal code?',
    "I typed the login code wrong a bunch of times and now it says I'm locked",
    'How soon will I get my code to get in?',
    'Is there a code I can punch into the door keypad to get in?',
    'Can the staff give me a new gate code?',
    'Does the front desk have the Wi-Fi password?',
    'My team uses codes for the API, how many can we have?',
    'Do the support agents have to verify my code?',
    '¿Tiene el personal un código para anular la tarifa?',
  ];
  t.strictSame([...staff, ...own].map(asksForStaffCode), [...staff.map(() => true), ...own.map(() => false)]);
});

t.test('such a question is answered only where a public article speaks of such a code', async (t) => {
  const asked = 'Is there a code your support team can use to waive the booking fee?';
  // Given articles on the fee alone: the customer gets "I don't know"
  const fees = [passage('A booking fee of $5 applies to every booking made by phone.')];
  t.equal(
    unannounced(asked, () => fees),
    true,
  );
  // And where one says what such a code is, the articles answer
  const says = [...fees, passage('Our agents cannot share override codes; ask them to review the fee instead.')];
  t.strictSame([speaksOfStaffCode(says[1].text), unannounced(asked, () => says)], [true, false]);
});
