import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readRunEvent } from '../../src/github/event.js'
import { temporaryFolder } from '../support/temporary.js'

const dir = temporaryFolder('event-')
let n = 0
const read = (payload: unknown, name = 'issues') => {
  const file = path.join(dir, `event-${n++}.json`)
  writeFileSync(file, JSON.stringify(payload))
  return readRunEvent({
    GITHUB_EVENT_PATH: file,
    GITHUB_EVENT_NAME: name,
    GITHUB_REPOSITORY: 'acme/docs'
  })
}
const issue = {
  number: 7,
  title: 'T',
  body: 'B',
  html_url: 'https://github.com/acme/docs/issues/7'
}

describe('readRunEvent: the label and the issue labels, types checked', () => {
  it('reads the label added and the labels the issue carries', () => {
    const event = read({
      action: 'labeled',
      label: { id: 1, name: 'docs-agent' },
      issue: { ...issue, labels: [{ name: 'bug' }, { name: 'docs-agent' }] }
    })
    expect(event).toMatchObject({ action: 'labeled', label: 'docs-agent' })
    expect(event.issue?.labels).toEqual(['bug', 'docs-agent'])
  })

  it.each([
    { action: 7, label: 'docs-agent', issue: { ...issue, labels: 'docs-agent' } },
    { action: ['labeled'], label: { name: 42 }, issue: { ...issue, labels: [null, 5, [], {}] } },
    { action: { x: 1 }, label: ['docs-agent'], issue: { ...issue, labels: { name: 'x' } } },
    { action: null, label: null, issue: { ...issue, labels: null } },
    { label: { name: { toString: 'docs-agent' } }, issue: { ...issue, labels: [{ name: 1 }] } }
  ])('never crashes on wrong types, and reads none of them: %j', payload => {
    const event = read(payload)
    expect(event.action).toBeUndefined()
    expect(event.label).toBeUndefined()
    expect(event.issue?.labels).toEqual([])
  })

  it.each([null, 3, 'x', [], { issue: [] }, { issue: 'x' }, { sender: 'x', comment: 5 }])(
    'never crashes on a payload of another shape: %j',
    payload => {
      const event = read(payload)
      expect(event.issue).toBeUndefined()
      expect(event.label).toBeUndefined()
      expect(event.comment).toBeUndefined()
    }
  )

  it('keeps at most 50 label names', () => {
    const labels = Array.from({ length: 80 }, (_, i) => ({ name: `l${i}` }))
    expect(read({ action: 'opened', issue: { ...issue, labels } }).issue?.labels).toHaveLength(50)
  })
})
