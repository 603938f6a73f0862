import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { ROOT } from '../support/run-action.js'

interface Step {
  name?: string
  run?: string
}
const release = parse(readFileSync(path.join(ROOT, '.github/workflows/release.yml'), 'utf8')) as {
  on: { push: { tags: string[] } }
  permissions: Record<string, string>
  jobs: { release: { steps: Step[] } }
}
const steps = release.jobs.release.steps
const script = (name: string): string => {
  const step = steps.find(s => s.name?.startsWith(name))
  if (!step?.run) throw new Error(`release.yml has no step '${name}'`)
  return step.run
}
const version = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    version: string
  }
).version

/** Runs a step's script as the runner does (bash -e -o pipefail) in `cwd`, with its env. */
function runStep(name: string, cwd: string, env: Record<string, string>) {
  const result = spawnSync(
    'bash',
    ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script(name)],
    {
      cwd,
      env: { PATH: process.env.PATH ?? '', RUNNER_TEMP: cwd, ...env },
      encoding: 'utf8'
    }
  )
  return { code: result.status, out: `${result.stdout}${result.stderr}` }
}

/** A folder with the repository's package.json and CHANGELOG.md, or the given texts. */
function project(files: { changelog?: string } = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'release-'))
  copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'))
  if (files.changelog !== undefined) writeFileSync(path.join(dir, 'CHANGELOG.md'), files.changelog)
  else copyFileSync(path.join(ROOT, 'CHANGELOG.md'), path.join(dir, 'CHANGELOG.md'))
  return dir
}

describe('the release workflow', () => {
  it('runs on version tags with the one permission it needs, and runs .ci/run', () => {
    expect(release.on.push.tags).toEqual(['v*.*.*'])
    expect(release.permissions).toEqual({ contents: 'write' })
    expect(steps.some(s => s.run?.trim() === 'bash .ci/run')).toBe(true)
  })

  it("takes the release notes from CHANGELOG.md's section of the tagged version", () => {
    const dir = project()
    const run = runStep('The tag names the version', dir, { TAG: `v${version}` })
    expect(run).toMatchObject({ code: 0 })
    const notes = readFileSync(path.join(dir, 'notes.md'), 'utf8')
    expect(notes).toContain('### Added')
    expect(notes).not.toContain('## [')
  })

  it.each([
    ['v1', /not a release version/],
    ['v1.2.3; rm -rf /', /not a release version/],
    ['v99.0.0', /does not match package\.json's version/]
  ])('refuses the tag %s', (tag, message) => {
    const run = runStep('The tag names the version', project(), { TAG: tag })
    expect(run.code).not.toBe(0)
    expect(run.out).toMatch(message)
  })

  it('refuses a version without release notes', () => {
    const changelog = `# Changelog\n\n## [Unreleased]\n\n## [${version}] - 2026-01-01\n\n## [0.9.0] - 2025-01-01\n\n- old\n`
    const run = runStep('The tag names the version', project({ changelog }), { TAG: `v${version}` })
    expect(run.code).not.toBe(0)
    expect(run.out).toContain(`CHANGELOG.md has no section '## [${version}]'`)
  })

  it('moves the major tag to each new release, like actions/checkout', () => {
    const origin = mkdtempSync(path.join(tmpdir(), 'origin-'))
    const work = mkdtempSync(path.join(tmpdir(), 'work-'))
    const git = (...args: string[]): string =>
      execFileSync('git', args, { cwd: work, encoding: 'utf8' }).trim()
    execFileSync('git', ['init', '--bare', '-q', origin])
    git('init', '-q')
    git('config', 'user.email', 'test@example.com')
    git('config', 'user.name', 'test')
    git('remote', 'add', 'origin', origin)
    const tagged: string[] = []
    for (const tag of ['v1.0.0', 'v1.1.0']) {
      git('commit', '-q', '--allow-empty', '-m', tag)
      const sha = git('rev-parse', 'HEAD')
      const run = runStep('Move the major tag', work, { TAG: tag, GITHUB_SHA: sha })
      expect(run).toMatchObject({ code: 0 })
      expect(run.out).toContain(`::notice::v1 now points at ${tag} (${sha}).`)
      const remote = execFileSync('git', ['ls-remote', origin, 'refs/tags/v1'], {
        encoding: 'utf8'
      })
      expect(remote.split('\t')[0]).toBe(sha)
      tagged.push(sha)
    }
    expect(tagged[0]).not.toBe(tagged[1])
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
