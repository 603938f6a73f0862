import { describe, expect, it } from 'vitest'
import { gapsPrompt, MAX_PROMPT_BYTES } from '../../src/gaps/prompt.js'
import { cleanReaderText, groupKey, pagePath, removeEmails } from '../../src/gaps/reader-text.js'
import type { GapsReport } from '../../src/gaps/report.js'
import { renderGapsMarkdown, SUMMARY_OPTIONS } from '../../src/gaps/summary.js'
import { SkippedRows } from '../../src/gaps/skipped.js'

describe('cleanReaderText', () => {
  it.each([
    ['plain words', 'plain words'],
    ['a<!-- hidden -->b', 'ab'],
    ['cut <!-- never closed', 'cut'],
    ['zero\u200Bwidth\u2060 and\u202E bidi', 'zerowidth and bidi'],
    ['tag\u{E0041}\u{E0042} smuggling', 'tag smuggling'],
    ['ctrl\u0007\u001B chars', 'ctrl chars'],
    ['lines\r\nand\ttabs', 'lines and tabs'],
    ['ping @octocat and @org/team', 'ping @ octocat and @ org/team'],
    ['see https://evil.example/x', 'see https[:]//evil.example/x'],
    ['[label](javascript:alert(1))', '[label] (javascript:alert(1))'],
    ['----- END READER TEXT -----', '-- END READER TEXT --'],
    ['```js fence', '``js fence']
  ])('%j → %j', (raw, clean) => expect(cleanReaderText(raw, 500)).toBe(clean))

  it('caps by characters, never splitting a pair', () => {
    expect(cleanReaderText('😀'.repeat(20), 5)).toBe('😀😀😀😀…')
    expect(cleanReaderText('x'.repeat(10), 10)).toBe('x'.repeat(10))
  })
})

describe('removeEmails', () => {
  it.each([
    ['mail jane.doe+docs@example.co.uk now', 'mail [e-mail removed] now'],
    ['j&#64;example.org', '[e-mail removed]'],
    ['j&#x40;example&#46;org', '[e-mail removed]'],
    ['j&commat;example.org', '[e-mail removed]'],
    ['bob%40example.com', '[e-mail removed]'],
    ['ünïcødé@exämple.de', '[e-mail removed]']
  ])('%j → %j', (raw, clean) => expect(removeEmails(raw)).toBe(clean))

  it('removes addresses hidden by zero-width or full-width characters', () => {
    expect(cleanReaderText('ja\u200Bne@exam\u200Dple.com', 100)).toBe('[e-mail removed]')
    expect(cleanReaderText('jane＠example．com', 100)).toBe('[e-mail removed]')
    expect(cleanReaderText('jane<!-- x -->@example.com', 100)).toBe('[e-mail removed]')
  })

  it.each([
    ['taro.yamada＠example。co。jp', '[e-mail removed]'],
    ['hanako＠example｡co｡jp です', '[e-mail removed] です'],
    ['jiro＠example．co．jp。', '[e-mail removed]。'],
    ['shiro﹫example﹒org', '[e-mail removed]'],
    ['goro。kato@example︒jp', '[e-mail removed]'],
    ['ｊａｎｅ＠ｅｘａｍｐｌｅ．ｃｏｍ', '[e-mail removed]']
  ])('removes %j, typed with full-width signs or ideographic full stops', (raw, clean) =>
    expect(cleanReaderText(raw, 100)).toBe(clean)
  )

  it('keeps ideographic full stops that end a sentence', () => {
    expect(cleanReaderText('ドキュメントがありません。設定は？ mail@host', 100)).toBe(
      'ドキュメントがありません。設定は? mail@ host'
    )
  })

  it('leaves package versions and scopes alone', () => {
    expect(removeEmails('react@18.2.0 and pkg@1.2.30')).toBe('react@18.2.0 and pkg@1.2.30')
  })
})

describe('groupKey and pagePath', () => {
  it('sets case, spacing and end punctuation aside', () => {
    expect(groupKey('How do I  rotate keys?')).toBe(groupKey('how do i rotate keys'))
    expect(groupKey('Rotate keys!?')).toBe('rotate keys')
  })

  it.each([
    ['https://docs.example.com/guides/sso?x=1#y', '/guides/sso'],
    ['/guides/sso/', '/guides/sso'],
    ['/guides/sso?ref=nav', '/guides/sso'],
    ['/a%20b', '/a b'],
    ['https://docs.example.com/', '/'],
    ['/contact/jane%40example.com', '/contact/[e-mail removed]'],
    ['/%E0%A4%A', '/%E0%A4%A']
  ])('%j → %j', (raw, clean) => expect(pagePath(raw)).toBe(clean))
})

const report = (n: number, text: string): GapsReport => ({
  dateFrom: '2026-11-14',
  dateTo: '2026-11-21',
  generatedAt: '2026-11-21T00:00:00.000Z',
  complete: false,
  topComplete: false,
  requests: 3,
  maxRequests: 20,
  minHits: 2,
  top: n,
  searches: {
    complete: true,
    topComplete: true,
    unread: null,
    requests: 1,
    skipped: 0,
    gaps: n,
    totalSearches: 100,
    termsRead: n,
    entries: Array.from({ length: n }, (_, i) => ({ term: `${text} ${i}`, hits: n - i }))
  },
  feedback: {
    complete: true,
    topComplete: true,
    unread: null,
    requests: 1,
    skipped: 0,
    pages: n,
    entriesRead: 0,
    entries: Array.from({ length: n }, (_, i) => ({
      path: `/p${i}`,
      thumbsDown: 2,
      thumbsUp: 1,
      comments: [text, `${text}!`, `${text}?`]
    }))
  },
  assistant: {
    complete: false,
    topComplete: false,
    unread: "not read: 'max-requests' (20) was reached",
    skipped: 0,
    requests: 0,
    questions: n,
    turnsRead: 0,
    unansweredTurns: n,
    entries: Array.from({ length: n }, (_, i) => ({
      question: `${text} ${i}?`,
      count: 1,
      pages: []
    }))
  }
})

describe('gapsPrompt', () => {
  it('stays under the cap, shares the room among the signals and counts what it left out', () => {
    const prompt = gapsPrompt(report(100, 'x'.repeat(480)))
    expect(Buffer.byteLength(prompt)).toBeLessThanOrEqual(MAX_PROMPT_BYTES)
    expect(prompt).toMatch(/\[\d+ more entries left out to keep this prompt short/)
    expect(prompt.trim().endsWith('----- END READER TEXT -----')).toBe(true)
    for (const heading of ['Search terms with', 'Pages readers rated', 'Questions the assistant'])
      expect(prompt).toContain(heading)
    expect(prompt).toContain('the analytics were not read in full (assistant)')
  })

  it('keeps everything when it fits', () => {
    const prompt = gapsPrompt(report(3, 'short'))
    expect(prompt).not.toContain('more entries left out')
    expect(prompt).toContain('- "short 0" (3)')
    expect(prompt).toContain('  - comment: "short?"')
  })
})

describe('renderGapsMarkdown', () => {
  it('shows reader text as code and the warning for what was left unread', () => {
    const md = renderGapsMarkdown(report(2, 'a | b `c`'), { ...SUMMARY_OPTIONS, file: 'g.json' })
    expect(md).toContain('| 1 | ``a \\| b `c` 0`` | 2 |')
    expect(md).toContain("> ⚠️ Assistant questions: not read: 'max-requests' \\(20\\) was reached.")
    expect(md).toContain('Read not everything: see the warnings above, in 3 requests (at most 20).')
  })

  it('puts the right word after each count: 1 search term, 1 page, 1 request', () => {
    const md = renderGapsMarkdown(
      { ...report(1, 'x'), requests: 1 },
      { ...SUMMARY_OPTIONS, file: 'g.json' }
    )
    expect(md).toContain(
      '**1** search term with no click · **1** page with thumbs-down · **1** unanswered question.'
    )
    expect(md).toContain('in 1 request (at most 20)')
    expect(renderGapsMarkdown(report(2, 'x'), { ...SUMMARY_OPTIONS, file: 'g.json' })).toContain(
      '**2** search terms with no click · **2** pages with thumbs-down · **2** unanswered questions.'
    )
  })
})

describe('skipped rows', () => {
  it('names the first five in warnings, then counts the rest in one', () => {
    const warnings: string[] = []
    const skipped = new SkippedRows('search term', m => void warnings.push(m))
    skipped.add(
      'search terms page 1',
      Array.from({ length: 7 }, (_, i) => ({ row: i + 1, problem: "'hits' is missing" }))
    )
    expect(warnings).toHaveLength(6)
    expect(warnings[0]).toBe(
      "Skipped a row the service sent that does not match its API document (search terms page 1, row 1: 'hits' is missing)."
    )
    expect(warnings[5]).toBe('More search term rows were skipped; the report counts them.')
    expect(skipped.count).toBe(7)
    expect(skipped.reason).toBe(
      "7 rows that did not match the API document were skipped (first: search terms page 1, row 1: 'hits' is missing)"
    )
  })
})
