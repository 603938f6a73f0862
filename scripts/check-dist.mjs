// Fails when dist/ differs from a fresh build of the sources (a missing, extra or different file),
// or when an entry's bundle does not hold exactly one copy of undici. Given a folder, it compares
// with the fresh build already there (.ci/run builds once and tests that build too).
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ENTRIES, undiciCopies } from './entries.mjs'

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const given = process.argv[2] ? path.resolve(root, process.argv[2]) : undefined
const fresh = given ?? path.join(root, '.tmp', 'check-dist')
if (!given)
  execFileSync(process.execPath, [path.join(root, 'scripts', 'bundle.mjs'), fresh], {
    cwd: root,
    stdio: 'inherit'
  })

const list = dir =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true })
        .map(String)
        .filter(f => statSync(path.join(dir, f)).isFile())
        .sort()
    : []
const committed = list(path.join(root, 'dist'))
const built = list(fresh)
const problems = []
for (const file of new Set([...committed, ...built])) {
  const a = path.join(root, 'dist', file)
  const b = path.join(fresh, file)
  if (!existsSync(a)) problems.push(`missing from dist/: ${file}`)
  else if (!existsSync(b)) problems.push(`not produced by the build: dist/${file}`)
  else if (!readFileSync(a).equals(readFileSync(b)))
    problems.push(`differs from a fresh build: dist/${file}`)
}
for (const entry of ENTRIES) {
  const copies = undiciCopies(path.join(fresh, entry.out))
  if (copies !== 1)
    problems.push(`dist/${entry.out} holds ${copies} copies of undici; it must hold exactly 1`)
}
if (!given) rmSync(fresh, { recursive: true, force: true })
if (problems.length) {
  console.error(
    `check-dist failed:\n  ${problems.join('\n  ')}\nRun 'npm run bundle' and commit dist/.`
  )
  process.exit(1)
}
console.log(
  `check-dist: dist/ matches the sources (${committed.length} files, one undici per entry).`
)
