import { describe, expect, it } from 'vitest'
import { PatchDropper, parseWithoutPatches } from '../../src/github/without-patches.js'

/** The text fed to the scanner in pieces cut at `cuts`, as a stream might deliver it. */
function scanned(json: string, cuts: number[], maxBytes = 1 << 20): unknown {
  const bytes = Buffer.from(json)
  const dropper = new PatchDropper(maxBytes)
  let from = 0
  for (const cut of [...cuts, bytes.length]) {
    dropper.push(bytes.subarray(from, cut))
    from = cut
  }
  return JSON.parse(dropper.text())
}

const commit = {
  sha: 'a'.repeat(40),
  commit: { message: 'Adds "patch": "x" to the text, and a \\ too: {"patch":"y"} 🙂' },
  files: [
    {
      filename: 'src/é.ts',
      status: 'modified',
      additions: 2,
      patch: '@@ -1 +1 @@\n-"old"\n+"new" \\" \\\\ 🙂 ,"patch": "not a key"'
    },
    { filename: 'patch', status: 'added', patch: null },
    { filename: 'bin.png', status: 'added' },
    { filename: 'x.ts', patch: '', status: 'removed' }
  ]
}
const expected = {
  ...commit,
  files: commit.files.map(f => ('patch' in f ? { ...f, patch: null } : f))
}

describe('parsing a commit without its patches', () => {
  it('drops every patch value and keeps the rest exactly, wherever the stream is cut', () => {
    const json = JSON.stringify(commit, null, 1)
    const length = Buffer.byteLength(json)
    for (let cut = 0; cut <= length; cut++) expect(scanned(json, [cut])).toEqual(expected)
    // Cut into single bytes: every state carried across chunks.
    expect(
      scanned(
        json,
        Array.from({ length }, (_, i) => i)
      )
    ).toEqual(expected)
  })

  it('keeps a value "patch" and a key like it', () => {
    const json = '{"patch":["patch"],"status":"patch","patches":"kept","x":{"patch" : "gone"}}'
    expect(scanned(json, [])).toEqual({
      patch: ['patch'],
      status: 'patch',
      patches: 'kept',
      x: { patch: null }
    })
  })

  it('holds only what is kept: a page of large patches costs its names', async () => {
    const patch = `@@ -1 +1 @@\n${'+x\n'.repeat(35_000)}`
    const files = Array.from({ length: 100 }, (_, i) => ({ filename: `f${i}.ts`, patch }))
    const text = Buffer.from(JSON.stringify({ files }))
    async function* stream() {
      for (let i = 0; i < text.length; i += 65_536) yield text.subarray(i, i + 65_536)
    }
    const parsed = (await parseWithoutPatches(stream(), 64 * 1024)) as typeof commit
    expect(parsed.files.map(f => f.filename)).toEqual(files.map(f => f.filename))
    expect(parsed.files.every(f => f.patch === null)).toBe(true)
  })

  it('refuses an answer larger than its cap without patches', () => {
    const json = JSON.stringify({ commit: { message: 'm'.repeat(200) }, files: [] })
    expect(() => scanned(json, [], 100)).toThrow(
      "GitHub's answer is larger than 100 bytes without its patches"
    )
  })
})
