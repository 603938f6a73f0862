// Builds every entry of scripts/entries.mjs with @vercel/ncc into dist/ (or the folder given as the
// first argument): per entry one ES module, not minified, with its licenses.txt and package.json beside it.
import { rmSync } from 'node:fs'
import path from 'node:path'
import { ENTRIES } from './entries.mjs'
import { COMPILED, ROOT, compileSources, compiledPath, nccBundle } from './ncc.mjs'

const outRoot = path.resolve(ROOT, process.argv[2] ?? 'dist')

const folders = ENTRIES.map(e => path.dirname(e.out))
if (new Set(folders).size !== folders.length)
  throw new Error(
    'scripts/entries.mjs: every entry needs its own folder (licenses.txt goes beside it)'
  )

compileSources()
// ncc never deletes anything: start from an empty folder, so no stale file survives.
rmSync(outRoot, { recursive: true, force: true })
for (const entry of ENTRIES) {
  const out = path.join(outRoot, entry.out)
  const bytes = await nccBundle(compiledPath(entry.source), out, entry.source)
  console.log(`${entry.source} -> ${path.relative(ROOT, out)} (${bytes} bytes)`)
}
rmSync(COMPILED, { recursive: true, force: true })
