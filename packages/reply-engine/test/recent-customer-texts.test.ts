import { expect } from 'chai';
import { recentCustomerTexts } from '../src/knowledge/knowledge-engine.js';
import { messageText } from '../src/message-text.js';
import { fileMessage, messageOf, textMessage } from './context-messages.js';

/** What the knowledge engine reads of a message and of the conversation before it. */
describe("a message's text and the customer's recent texts", () => {
  it('joins the text parts, trimmed, by newlines, leaving out files and blank texts', () => {
    const message = messageOf('customer', [
      { type: 'text', content: '  where is my order? ' },
      { type: 'image', content: 'https://example.com/a.png' },
      { type: 'text', content: ' \n ' },
      { type: 'text', content: 'it is late' },
    ]);
    expect(messageText(message)).to.equal('where is my order?\nit is late');
    expect(messageText(fileMessage('customer', 'document', 'https://example.com/a.pdf'))).to.equal('');
    expect(messageText(textMessage('customer', 'plain'))).to.equal('plain');
  });

  it("gives the last `count` customer texts, oldest first, skipping the staff's, the bot's and messages without text", () => {
    const context = [
      textMessage('customer', 'first'),
      textMessage('customer', 'second'),
      textMessage('bot', 'an answer'),
      fileMessage('customer', 'image', 'https://example.com/b.png'),
      textMessage('agent', 'a human'),
      textMessage('customer', ' third '),
      textMessage('customer', '   '),
    ];
    expect(recentCustomerTexts(context, 2)).to.deep.equal(['second', 'third']);
    expect(recentCustomerTexts(context, 3)).to.deep.equal(['first', 'second', 'third']);
    expect(recentCustomerTexts(context, 10)).to.deep.equal(['first', 'second', 'third']);
    expect(recentCustomerTexts(context, 1)).to.deep.equal(['third']);
    expect(recentCustomerTexts(context, 0)).to.deep.equal([]);
    expect(recentCustomerTexts(context, -1)).to.deep.equal([]);
    expect(recentCustomerTexts([], 2)).to.deep.equal([]);
  });
});
