import {
  type Ledger,
  dashboardPlace,
  emptyProject,
  ledgerRecord
} from '../../src/records/ledger.js'
import { RecordSigner } from '../../src/records/record.js'
import type { FakeCommit, FakeGitHub, FakePull } from '../simulator/fake-github.js'
import { SIM_API_KEY, SIM_PROJECT } from '../simulator/server.js'
import { APP } from './code-change-runs.js'

/**
 * The code repository of the rename world (test/simulator/analytics-dated.ts): #99 added a `--watch`
 * prototype before the analytics range, #120 bumped dependencies, #123 renamed `--follow` to
 * `--watch` on the rename day, and a direct push renamed the config key `server.port`.
 */
export interface RenameRepository {
  prototype: FakePull
  deps: FakePull
  rename: FakePull
  push: FakeCommit
}

const at = (iso: string): number => Date.parse(iso)

export function renameRepository(
  gh: FakeGitHub,
  over: { renameTitle?: string } = {}
): RenameRepository {
  const merged = (pull: FakePull): FakePull => {
    gh.addPull(APP, pull)
    gh.mergePull(APP, pull)
    return pull
  }
  const prototype = merged({
    number: 99,
    title: 'Add a --watch prototype',
    body: 'Experimental; `--watch` reruns on change.',
    files: [{ filename: 'src/cli/watch.ts', status: 'added', additions: 40 }],
    mergedAt: at('2026-10-20T10:00:00Z')
  })
  const deps = merged({
    number: 120,
    title: 'Update dependencies',
    body: 'Routine bumps: watch the changelog of each.',
    files: [{ filename: 'package.json', additions: 3, deletions: 3 }],
    mergedAt: at('2026-11-05T10:00:00Z')
  })
  const rename = merged({
    number: 123,
    title: over.renameTitle ?? 'Rename --follow to --watch',
    body: 'The `--follow` flag is now `--watch`; `--follow` is gone.',
    files: [
      {
        filename: 'src/cli/flags.ts',
        additions: 1,
        deletions: 1,
        patch: "@@ -10,3 +10,3 @@\n-  follow: flag('--follow'),\n+  watch: flag('--watch'),"
      }
    ],
    mergedAt: at('2026-11-10T15:00:00Z')
  })
  const push = gh.commitTo(APP, {
    message: 'Rename the config key\n\nListening is configured apart from the public port now.',
    files: [
      {
        filename: 'src/config.ts',
        patch: "@@ -1 +1 @@\n-  port: cfg['server.port'],\n+  listenPort: cfg['server.listenPort'],"
      }
    ],
    committedAt: at('2026-11-12T09:00:00Z')
  })
  return { prototype, deps, rename, push }
}

/** A dashboard issue whose signed ledger lists these changes as documented, for the simulator's project. */
export function dashboardWithLedger(
  gh: FakeGitHub,
  changes: { sha: string; pr?: number; title: string }[],
  { signer = new RecordSigner(SIM_API_KEY), project = SIM_PROJECT } = {}
): void {
  const ledger: Ledger = {
    v: 1,
    projects: {
      [project]: {
        ...emptyProject(),
        // A job keeps at most 20 changes (the ledger's own limit): one job per 20.
        jobs: Array.from({ length: Math.ceil(changes.length / 20) }, (_, j) => ({
          id: `job-${j + 1}`,
          state: 'merged',
          startedAt: at('2026-11-18T09:00:00Z') + j,
          changes: changes.slice(j * 20, j * 20 + 20),
          moreChanges: 0
        }))
      }
    }
  }
  const now = at('2026-11-20T00:00:00Z')
  gh.issues.set(700, {
    number: 700,
    title: 'Docs agent dashboard',
    body: `The docs agent's work.\n\n${ledgerRecord(ledger, signer, dashboardPlace(APP), now)}`,
    state: 'open',
    labels: ['docs-agent-dashboard'],
    user: { login: 'github-actions[bot]', type: 'Bot' },
    updatedAt: 1
  })
}

/**
 * `count` pull requests that touch nothing readers asked about, merged every 4 hours from
 * 2026-11-01 08:00 (inside the range, most of them after the rename and the push): ledger entries.
 */
export function otherChanges(
  gh: FakeGitHub,
  count: number
): { sha: string; pr: number; title: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const pull = gh.addPull(APP, {
      number: 200 + i,
      title: `Refactor module ${i}`,
      body: 'Internal tidying.',
      files: [{ filename: `src/module${i}.ts`, patch: `@@ -1 +1 @@\n-old${i}\n+new${i}` }],
      mergedAt: at('2026-11-01T08:00:00Z') + i * 4 * 3_600_000
    })
    gh.mergePull(APP, pull)
    return { sha: pull.mergeCommit ?? '', pr: pull.number, title: pull.title ?? '' }
  })
}

/** The rename, the push and `others` more changes: the ledger's list, oldest first. */
export function ledgerWith(
  repo: RenameRepository,
  others: { sha: string; pr: number; title: string }[]
) {
  return [
    ...others,
    { sha: repo.rename.mergeCommit ?? '', pr: 123, title: repo.rename.title ?? '' },
    { sha: repo.push.sha, title: 'Rename the config key' }
  ]
}
