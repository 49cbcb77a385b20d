import { describe, expect, it } from 'vitest';
import { htmlToText, parseSite, siteApi, topicOf } from './forum';
import { ConnectorError } from './types';

// The pure parts the feedback-forum connectors share: what a person may type as the site's address,
// HTML posts as text, and which topic a reply goes to.

describe('parseSite', () => {
  it('takes an alias, a host or a whole address; refuses IPs, localhost and junk', () => {
    expect(parseSite('Shop', '.userecho.com')).toBe('shop');
    expect(parseSite('https://shop.userecho.com/topics/1/', '.userecho.com')).toBe('shop');
    expect(parseSite('feedback.example.com/')).toBe('feedback.example.com');
    expect(parseSite('https://feedback.example.com:8443/x')).toBe('feedback.example.com');
    for (const bad of ['', '127.0.0.1', 'localhost', 'http://localhost/', 'a b', '-x.com', 'x_y.com'])
      expect(parseSite(bad), bad).toBeNull();
  });

  it('fills the site into the API template', () => {
    expect(siteApi('https://{site}.userecho.com/api/v2', 'shop')).toBe('https://shop.userecho.com/api/v2');
    expect(siteApi('http://127.0.0.1:9/{site}/api/4.0/', 'a.example')).toBe(
      'http://127.0.0.1:9/a.example/api/4.0',
    );
  });
});

describe('htmlToText', () => {
  it('keeps paragraphs and line breaks, drops tags, decodes entities', () => {
    expect(htmlToText('<p>Первый&nbsp;абзац</p><p>Второй<br/>строка &amp; &lt;тег&gt; &#8470;1</p>')).toBe(
      'Первый абзац\nВторой\nстрока & <тег> №1',
    );
  });
});

describe('topicOf', () => {
  it('answers in the topic of the item, and refuses an item without one', () => {
    expect(topicOf('UserEcho', 'topic:42')).toBe('42');
    expect(() => topicOf('UserEcho', null)).toThrow(ConnectorError);
  });
});
