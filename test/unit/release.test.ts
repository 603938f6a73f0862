import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { ROOT } from '../support/run-action.js'
import { temporaryFolder } from '../support/temporary.js'

interface Step {
  name?: string
  id?: string
  uses?: string
  with?: Record<string, unknown>
  env?: Record<string, string>
  run?: string
}
interface Job {
  needs?: string | string[]
  permissions?: Record<string, string>
  'timeout-minutes'?: number
  outputs?: Record<string, string>
  steps: Step[]
}
const release = parse(readFileSync(path.join(ROOT, '.github/workflows/release.yml'), 'utf8')) as {
  on: { push: { tags: string[] } }
  permissions: Record<string, string>
  concurrency: { group: string; 'cancel-in-progress': boolean }
  jobs: { check: Job; attest: Job; publish: Job }
}
const { check, attest, publish } = release.jobs
const step = (name: string): Step => {
  const found = [...check.steps, ...attest.steps, ...publish.steps].find(s =>
    s.name?.startsWith(name)
  )
  if (!found?.run) throw new Error(`release.yml has no step '${name}'`)
  return found
}
const version = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    version: string
  }
).version

/**
 * How long a script or a git command may take: far more than it needs, and what a synchronous
 * child cannot exceed without holding the worker (no test time limit fires while it runs).
 */
const CHILD_LIMIT = { timeout: 20_000, killSignal: 'SIGKILL' } as const

/** Runs a step's script as the runner does (bash -e -o pipefail) in `cwd`, with its env. */
function runStep(name: string, cwd: string, env: Record<string, string>) {
  const result = spawnSync(
    'bash',
    ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step(name).run as string],
    {
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        RUNNER_TEMP: cwd,
        GITHUB_OUTPUT: path.join(cwd, 'github_output'),
        ...env
      },
      encoding: 'utf8',
      ...CHILD_LIMIT
    }
  )
  if (result.error) throw result.error
  return { code: result.status, out: `${result.stdout}${result.stderr}` }
}

/** A folder with the repository's package.json and CHANGELOG.md, or the given texts. */
function project(files: { changelog?: string } = {}): string {
  const dir = temporaryFolder('release-')
  copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'))
  if (files.changelog !== undefined) writeFileSync(path.join(dir, 'CHANGELOG.md'), files.changelog)
  else copyFileSync(path.join(ROOT, 'CHANGELOG.md'), path.join(dir, 'CHANGELOG.md'))
  return dir
}

/** A repository with a bare "origin" beside it, both in temporary folders. */
function repository() {
  const origin = temporaryFolder('origin-')
  const work = temporaryFolder('work-')
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: work, encoding: 'utf8', ...CHILD_LIMIT }).trim()
  execFileSync('git', ['init', '--bare', '-q', origin], CHILD_LIMIT)
  git('init', '-q')
  git('config', 'user.email', 'test@example.com')
  git('config', 'user.name', 'test')
  git('remote', 'add', 'origin', origin)
  /** A new commit on the current branch, tagged `tag` locally when given; its SHA. */
  const commit = (message: string, tag?: string): string => {
    git('commit', '-q', '--allow-empty', '-m', message)
    if (tag) git('tag', tag)
    return git('rev-parse', 'HEAD')
  }
  /**
   * What `ref` points at on origin, or '' when origin has no such ref: read in the bare repository
   * itself, one process where ls-remote starts two.
   */
  const remote = (ref: string): string =>
    spawnSync('git', ['--git-dir', origin, 'rev-parse', '--verify', '--quiet', ref], {
      encoding: 'utf8',
      ...CHILD_LIMIT
    }).stdout.trim()
  return { work, git, commit, remote }
}

describe('the release workflow', () => {
  it('checks with a read-only token it does not keep, then publishes with a write token', () => {
    expect(release.on.push.tags).toEqual(['v*.*.*'])
    expect(release.permissions).toEqual({})
    expect(release.concurrency).toEqual({ group: 'release', 'cancel-in-progress': false })

    expect(check.permissions).toEqual({ contents: 'read' })
    const checkout = check.steps.find(s => s.uses?.startsWith('actions/checkout@'))
    expect(checkout?.with?.['persist-credentials']).toBe(false)
    expect(check.steps.some(s => s.run?.trim() === 'bash .ci/run')).toBe(true)

    expect(publish.needs).toEqual(['check', 'attest'])
    expect(publish.permissions).toEqual({ contents: 'write' })
    // The job with the write token installs and runs no npm code.
    expect(publish.steps.some(s => s.uses?.startsWith('actions/setup-node@'))).toBe(false)
    expect(publish.steps.some(s => /\bnp[mx]\b/.test(s.run ?? ''))).toBe(false)

    for (const job of [check, attest, publish]) expect(job['timeout-minutes']).toBeGreaterThan(0)
  })

  it('attests dist/ in a job of its own, the only one that can sign, after the checks', () => {
    expect(Object.keys(release.jobs).sort()).toEqual(['attest', 'check', 'publish'])
    expect(attest.needs).toBe('check')
    expect(attest.permissions).toEqual({
      contents: 'read',
      'id-token': 'write',
      attestations: 'write'
    })
    for (const job of [check, publish]) {
      expect(job.permissions).not.toHaveProperty('id-token')
      expect(job.permissions).not.toHaveProperty('attestations')
    }
    const uses = attest.steps.flatMap(s => (s.uses ? [s.uses] : []))
    expect(uses).toEqual([
      expect.stringMatching(/^actions\/checkout@[0-9a-f]{40}$/),
      expect.stringMatching(/^actions\/attest-build-provenance@[0-9a-f]{40}$/)
    ])
    expect(attest.steps[0]?.with?.['persist-credentials']).toBe(false)
    // It installs, builds and runs nothing of the project: what it signs is the committed dist/.
    expect(attest.steps.some(s => /\bnp[mx]\b|\bnode\b/.test(s.run ?? ''))).toBe(false)
    const attestation = attest.steps.find(s =>
      s.uses?.startsWith('actions/attest-build-provenance@')
    )
    expect(attestation?.with).toEqual({
      'subject-checksums': '${{ runner.temp }}/dist.sha256'
    })
    // The checksums are listed before the attestation reads them.
    const listing = attest.steps.findIndex(s => s.name?.startsWith('List every file of dist/'))
    expect(listing).toBeGreaterThan(0)
    expect(listing).toBeLessThan(attest.steps.indexOf(attestation as Step))
  })

  it('lists every file of dist/ by its path and sha256, the entry points of the three actions among them', () => {
    const dir = temporaryFolder('attest-')
    for (const file of [
      'dist/index.js',
      'dist/post/index.js',
      'dist/gaps/index.js',
      'dist/visitors/index.js',
      'dist/package.json'
    ]) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
      writeFileSync(path.join(dir, file), `// ${file}\n`)
    }
    const run = runStep('List every file of dist/', dir, {})
    expect(run).toMatchObject({ code: 0 })
    const listed = readFileSync(path.join(dir, 'dist.sha256'), 'utf8').trim().split('\n')
    const digest = (file: string): string =>
      createHash('sha256')
        .update(readFileSync(path.join(dir, file)))
        .digest('hex')
    expect(listed).toEqual(
      [
        'dist/gaps/index.js',
        'dist/index.js',
        'dist/package.json',
        'dist/post/index.js',
        'dist/visitors/index.js'
      ].map(f => `${digest(f)}  ${f}`)
    )
    // The action's entry points, as action.yml and the sub-actions' name them, are all in dist/.
    const entries = ['action.yml', 'gaps/action.yml', 'visitors/action.yml'].flatMap(file => {
      const runs = (
        parse(readFileSync(path.join(ROOT, file), 'utf8')) as { runs: Record<string, string> }
      ).runs
      return [runs.main, runs.post].flatMap(p =>
        p ? [path.posix.join(path.posix.dirname(file), p)] : []
      )
    })
    expect(entries.sort()).toEqual([
      'dist/gaps/index.js',
      'dist/index.js',
      'dist/post/index.js',
      'dist/visitors/index.js'
    ])
    for (const entry of entries) expect(existsSync(path.join(ROOT, entry)), entry).toBe(true)
  })

  it('refuses to attest a commit without a built dist/index.js', () => {
    const dir = temporaryFolder('attest-')
    mkdirSync(path.join(dir, 'dist/gaps'), { recursive: true })
    writeFileSync(path.join(dir, 'dist/gaps/index.js'), '')
    const run = runStep('List every file of dist/', dir, {})
    expect(run.code).not.toBe(0)
    expect(run.out).toContain('::error::dist/index.js is missing')
  })

  it('creates each release once and never changes its assets, so it can be immutable', () => {
    const scripts = [...check.steps, ...attest.steps, ...publish.steps]
      .map(s => s.run ?? '')
      .join('\n')
    expect(scripts.match(/gh release create/g)).toHaveLength(1)
    expect(scripts).not.toMatch(/gh release (upload|edit|delete)|--clobber|--draft/)
    // The release's own tag is never moved or deleted, only the major tag is (the advice to move a
    // tag not on main, in a message, comes before any release exists).
    const commands = scripts
      .split('\n')
      .filter(line => !/^\s*echo /.test(line))
      .join('\n')
    expect(commands).toContain('git push --force origin "refs/tags/$major"')
    expect(commands).not.toMatch(/git push[^\n]*refs\/tags\/\$TAG|git tag[^\n]*-d/)
  })

  it('hands the notes from the check job to the publish job', () => {
    expect(step('The tag names the version').id).toBe('notes')
    expect(check.outputs).toEqual({ notes: '${{ steps.notes.outputs.notes }}' })
    expect(step('Publish the GitHub release').env?.NOTES).toBe('${{ needs.check.outputs.notes }}')
  })

  it("takes the release notes from CHANGELOG.md's section of the tagged version", () => {
    const dir = project()
    const run = runStep('The tag names the version', dir, { TAG: `v${version}` })
    expect(run).toMatchObject({ code: 0 })
    const notes = readFileSync(path.join(dir, 'notes.md'), 'utf8')
    expect(notes).toContain('### Added')
    expect(notes).not.toContain('## [')
    // The same text as the step's output, behind a delimiter no line of it can match.
    const output = readFileSync(path.join(dir, 'github_output'), 'utf8')
    const [, delimiter, value] = /^notes<<(notes_[0-9a-f]{32})\n([\s\S]*)\n\1\n$/.exec(output) ?? []
    expect(delimiter).toBeDefined()
    expect(`${value}\n`).toBe(notes)
  })

  it.each([
    ['v1', /not a release version/],
    ['v1.2.3; rm -rf /', /not a release version/],
    ['v99.0.0', /does not match package\.json's version/],
    [`v${version}-rc.1`, /does not match package\.json's version/]
  ])('refuses the tag %s', (tag, message) => {
    const dir = project()
    const run = runStep('The tag names the version', dir, { TAG: tag })
    expect(run.code).not.toBe(0)
    expect(run.out).toMatch(message)
    expect(existsSync(path.join(dir, 'github_output'))).toBe(false)
  })

  it('refuses a version without release notes', () => {
    const changelog = `# Changelog\n\n## [Unreleased]\n\n## [${version}] - 2026-01-01\n\n## [0.9.0] - 2025-01-01\n\n- old\n`
    const run = runStep('The tag names the version', project({ changelog }), { TAG: `v${version}` })
    expect(run.code).not.toBe(0)
    expect(run.out).toContain(`CHANGELOG.md has no section '## [${version}]'`)
  })

  it('refuses a tag whose commit is not on main, reading main from origin', () => {
    const { work, git, commit } = repository()
    const first = commit('first on main')
    const second = commit('second on main')
    git('push', '-q', 'origin', 'HEAD:refs/heads/main')
    git('checkout', '-q', '-b', 'side')
    const side = commit('on a side branch only')
    git('push', '-q', 'origin', 'side')
    // Only origin knows main, as on a runner whose checkout fetched the tag alone.
    git('update-ref', '-d', 'refs/remotes/origin/main')

    for (const sha of [first, second]) {
      const run = runStep('The tagged commit is on main', work, { TAG: 'v1.2.0', GITHUB_SHA: sha })
      expect(run).toMatchObject({ code: 0 })
      expect(run.out).toContain(`Tag 'v1.2.0' (${sha}) is on main.`)
    }
    const run = runStep('The tagged commit is on main', work, { TAG: 'v1.2.0', GITHUB_SHA: side })
    expect(run.code).not.toBe(0)
    expect(run.out).toContain(
      `::error::Tag 'v1.2.0' points at ${side}, which is not on main. Merge the release into main, delete the tag (git push origin :refs/tags/v1.2.0) and push it again on the merged commit.`
    )
  })

  describe('publishing', () => {
    // The step reads only the names of the tags: one repository and one commit serve every case,
    // with the case's tags (set in one git process) and nothing else.
    let work: string
    let sha: string
    let tagged: string[] = []
    beforeAll(() => {
      const repo = repository()
      work = repo.work
      sha = repo.commit('the release')
      // `gh` on PATH as a stand-in that records its arguments; `release view` finds $EXISTING.
      writeFileSync(
        path.join(work, 'gh'),
        `#!/usr/bin/env bash
if [ "$1 $2" = "release view" ]; then [ "$3" = "$EXISTING" ]; exit; fi
printf '%s\\n' "$@" > "${path.join(work, 'gh-args')}"
`,
        { mode: 0o755 }
      )
    })

    function publishRun(tags: string[], tag: string, options: { existing?: string } = {}) {
      const refs = [
        ...tagged.map(t => `delete refs/tags/${t}`),
        ...[...tags, tag].map(t => `create refs/tags/${t} ${sha}`)
      ]
      execFileSync('git', ['update-ref', '--stdin'], {
        cwd: work,
        input: `${refs.join('\n')}\n`,
        ...CHILD_LIMIT
      })
      tagged = [...tags, tag]
      const argsFile = path.join(work, 'gh-args')
      const notes = path.join(work, 'notes.md')
      rmSync(argsFile, { force: true })
      rmSync(notes, { force: true })
      const run = runStep('Publish the GitHub release', work, {
        TAG: tag,
        GITHUB_SHA: sha,
        NOTES: '### Fixed\n\n- a line',
        EXISTING: options.existing ?? '',
        PATH: `${work}:${process.env.PATH ?? ''}`
      })
      const args = existsSync(argsFile) ? readFileSync(argsFile, 'utf8').trim().split('\n') : []
      return { ...run, args, notes: existsSync(notes) ? readFileSync(notes, 'utf8') : undefined }
    }

    it.each([
      { what: 'the first release', tags: [], tag: 'v1.0.0', flags: ['--latest'] },
      { what: 'a newer release', tags: ['v1.5.0'], tag: 'v1.6.0', flags: ['--latest'] },
      { what: 'v1.10.0 after v1.9.0', tags: ['v1.9.0'], tag: 'v1.10.0', flags: ['--latest'] },
      { what: 'a backport', tags: ['v1.5.0'], tag: 'v1.4.1', flags: ['--latest=false'] },
      { what: 'v1 after v2', tags: ['v2.0.0'], tag: 'v1.6.0', flags: ['--latest=false'] },
      {
        what: 'a pre-release',
        tags: ['v1.5.0'],
        tag: 'v2.0.0-rc.1',
        flags: ['--prerelease', '--latest=false']
      },
      {
        what: 'a release after a pre-release',
        tags: ['v1.7.0-rc.1'],
        tag: 'v1.6.0',
        flags: ['--latest']
      }
    ])('publishes $what ($tag) with the notes, marked $flags', ({ tags, tag, flags }) => {
      const run = publishRun(tags, tag)
      expect(run).toMatchObject({ code: 0 })
      expect(run.notes).toBe('### Fixed\n\n- a line\n')
      expect(run.args).toEqual([
        'release',
        'create',
        tag,
        '--verify-tag',
        '--title',
        tag,
        '--notes-file',
        expect.stringMatching(/notes\.md$/),
        ...flags
      ])
    })

    it('leaves a release that exists (a re-run) as it is', () => {
      const run = publishRun([], 'v1.0.0', { existing: 'v1.0.0' })
      expect(run).toMatchObject({ code: 0, args: [] })
      expect(run.out).toContain('::notice::Release v1.0.0 exists already: left as it is.')
    })
  })

  it('moves the major tag only to the highest release of that major', () => {
    const { work, git, commit, remote } = repository()
    /** Runs the step for a new tag on a new commit; the step's output and the commit. */
    const push = (tag: string) => {
      const sha = commit(tag, tag)
      return { sha, ...runStep('Move the major tag', work, { TAG: tag, GITHUB_SHA: sha }) }
    }
    const moved = (tag: string): string => {
      const run = push(tag)
      expect(run).toMatchObject({ code: 0 })
      expect(run.out).toContain(`::notice::v1 now points at ${tag} (${run.sha}).`)
      expect(remote('refs/tags/v1')).toBe(run.sha)
      return run.sha
    }
    const stays = (tag: string, on: string, message: string): void => {
      const before = remote('refs/tags/v1')
      const run = push(tag)
      expect(run).toMatchObject({ code: 0 })
      expect(run.out).toContain(message)
      expect(remote('refs/tags/v1')).toBe(before)
      expect(before).toBe(on)
    }

    moved('v1.4.0')
    const v150 = moved('v1.5.0')
    // A fix to v1.4.0, released after v1.5.0.
    git('checkout', '-q', '-b', 'release-1.4', 'v1.4.0')
    stays('v1.4.1', v150, '::notice::v1 stays on v1.5.0, a higher release than v1.4.1.')
    git('checkout', '-q', '-')
    // A pre-release of the next minor is no release: v1.6.0 is the highest.
    git('tag', 'v1.7.0-rc.1')
    const v160 = moved('v1.6.0')
    stays('v2.0.0-rc.1', v160, '::notice::v2.0.0-rc.1 is a pre-release: v2 stays where it is.')
    expect(remote('refs/tags/v2')).toBe('')
    // Versions compare by number, not as text.
    moved('v1.9.0')
    const v1100 = moved('v1.10.0')
    stays('v1.9.1', v1100, '::notice::v1 stays on v1.10.0, a higher release than v1.9.1.')

    // The next major: v2.0.0 starts v2 and leaves v1 on the highest 1.x.y; a later 1.x fix moves v1
    // only, and v2 moves to each higher 2.x.y, never back to a 2.x backport.
    const major2 = (tag: string, expected: string): string => {
      const run = push(tag)
      expect(run).toMatchObject({ code: 0 })
      expect(run.out).toContain(expected)
      return run.sha
    }
    const v200 = major2('v2.0.0', '::notice::v2 now points at v2.0.0')
    expect(remote('refs/tags/v2')).toBe(v200)
    expect(remote('refs/tags/v1')).toBe(v1100)
    const v1101 = major2('v1.10.1', '::notice::v1 now points at v1.10.1')
    expect(remote('refs/tags/v1')).toBe(v1101)
    expect(remote('refs/tags/v2')).toBe(v200)
    const v2100 = major2('v2.10.0', '::notice::v2 now points at v2.10.0')
    major2('v2.9.1', '::notice::v2 stays on v2.10.0, a higher release than v2.9.1.')
    expect(remote('refs/tags/v2')).toBe(v2100)
    expect(remote('refs/tags/v1')).toBe(v1101)
  })
})

describe('README.md', () => {
  it("says on its first screen which version is released: package.json's, dated as CHANGELOG.md dates it", () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
    const firstScreen = readme.split('\n').slice(0, 15).join('\n')
    expect(firstScreen).toContain(`**v${version} is released**`)
    expect(firstScreen).toContain(`# v${version}`)
    const changelog = readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8')
    const dated = new RegExp(
      `^## \\[${version.replace(/\./g, '\\.')}\\] - (\\d{4})-(\\d{2})-(\\d{2})$`,
      'm'
    ).exec(changelog)
    const [, year, month, day] = dated ?? []
    const date = new Date(`${year}-${month}-${day}T00:00:00Z`)
    const spelled = `${date.getUTCDate()} ${date.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })} ${year}`
    expect(firstScreen).toContain(`(${spelled})`)
  })
})

describe('CHANGELOG.md', () => {
  it("has a dated section for package.json's version and an Unreleased section", () => {
    const text = readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8')
    expect(text).toContain('## [Unreleased]')
    expect(text).toMatch(
      new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm')
    )
  })
})
