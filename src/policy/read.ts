import * as v from 'valibot'
import { bytes } from '../runner/text.js'
import { repositoryKey } from './code-repositories.js'
import {
  LEDGER_LIMITS,
  type LedgerLimit,
  type Policy,
  type PolicyValues,
  policyValues,
  resolvePolicy
} from './policy.js'
import { exampleOf, unknownKeyMessage } from './key-messages.js'
import { Locator, type Located, type Path, pathName } from './locator.js'
import { type PolicyProblem, PolicyError, keyName, looksSecret, shown } from './problems.js'
import { MAX_POLICY_BYTES, POLICY_VERSION } from './choices.js'
import { PRESETS } from './presets.js'
import { MAX_STARTS } from '../records/ledger/starts.js'
import { POLICY_SCHEMA, type PolicyFile, type PolicyKey } from './schema.js'

/** Aliases (`*name`) a file may expand; a few shared lists are fine, a billion laughs is not. */
const MAX_ALIAS_COUNT = 100

export interface ReadOptions {
  /** The workflow's repository (`owner/repo`): `code-repositories` must not list it. */
  repository?: string
}

/** Problems from the top of the file down. */
const inOrder = (problems: PolicyProblem[]): PolicyProblem[] =>
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0))

/** What YAML's parser says, in words for a person who wrote a policy file. */
function syntaxMessage(code: string, message: string, line: string): string {
  if (code === 'DUPLICATE_KEY') return 'is set twice: keep one.'
  if (code === 'MULTIPLE_DOCS')
    return 'the file holds more than one YAML document: remove the --- line and what follows, or merge them.'
  // `[src/{api,cli}/**]`: in a list on one line, braces and commas are YAML's own.
  const glob = /\[[^\]#]*[{}]/.exec(line)
    ? ' Inside [ ], YAML reads {, } and , itself: quote a glob that has them ("src/{api,cli}/**"), or write the list one item a line after "- ".'
    : ' Check the indentation and the quotes.'
  return `is not valid YAML: ${message
    .split('\n')[0]
    ?.replace(/ at line \d+, column \d+:?$/, '')
    .replace(/\.$/, '')}.${glob}`
}

/** Tags, and aliases with no anchor: YAML's reading of a glob that starts with `!` or `*`. */
function nodeProblems(yaml: typeof import('yaml'), where: Locator): PolicyProblem[] {
  const problems: PolicyProblem[] = []
  const anchors = new Set<string>()
  yaml.visit(where.doc, {
    Node(_key, node) {
      const offset = node.range?.[0] ?? 0
      const key = pathName(where.pathAt(offset))
      if (yaml.isAlias(node)) {
        const alias = `*${node.source}`
        if (!anchors.has(node.source))
          problems.push({
            ...where.at(offset, key),
            message: looksSecret(alias)
              ? 'reads as a YAML alias with no anchor before it (not shown: it looks like a secret).'
              : `${alias} reads as a YAML alias, and no &${node.source} comes before it. A glob that starts with * must be quoted: "${alias}".`
          })
        return
      }
      if (node.anchor) anchors.add(node.anchor)
      if (node.tag === undefined) return
      // The node starts after its tag, which the parser resolved: `!!str` is yaml.org's `str`.
      const tag = node.tag.replace(/^tag:yaml\.org,2002:/, '!!')
      const at = where.text.lastIndexOf(tag, offset)
      const glob = `${tag}${yaml.isScalar(node) && node.source ? ` ${node.source}` : ''}`
      problems.push({
        ...where.at(at < 0 ? offset : at, key),
        message: looksSecret(tag)
          ? 'reads as a YAML tag (not shown: it looks like a secret). Quote the value.'
          : tag.startsWith('!!') || tag.startsWith('!<')
            ? `YAML tags (${tag}) are not read in a policy file: write the value without it.`
            : `${tag} reads as a YAML tag. A glob that starts with ! must be quoted: "${glob}".`
      })
    }
  })
  return problems
}

/** One message of valibot's, for the value it judged: what is wrong, what it got, what is right. */
function issueProblem(where: Locator, issue: v.BaseIssue<unknown>): PolicyProblem {
  const path: Path = (issue.path ?? []).map(item => item.key as string | number)
  const last = issue.path?.at(-1)
  const top = path[0] as PolicyKey
  if (issue.type === 'strict_object' && last?.origin === 'key') {
    const name = String(last.key)
    return {
      ...where.key(path),
      message:
        path.length === 1
          ? unknownKeyMessage(name)
          : `'${keyName(name)}' is not a key of a repository: write repository, paths and paths-ignore only (such as ${exampleOf('code-repositories')}).`
    }
  }
  // A rule on a whole list or mapping says what is wrong in it; "got a list" would add nothing.
  const whole = issue.kind === 'validation' && typeof issue.input === 'object' && issue.input
  return {
    ...where.value(path),
    message: `${issue.message}${whole ? '' : `; got ${shown(issue.input)}`}. For example: ${exampleOf(top)}`
  }
}

/** A union's issues are its options'; keep those of the option the value was meant for. */
function meant(issue: v.BaseIssue<unknown>): v.BaseIssue<unknown>[] {
  if (issue.type !== 'union' || !issue.issues) return [issue]
  // An option's issues have paths from the union's value on; a wrong type of the value itself is
  // the option the value was not meant for.
  const inner = issue.issues.filter(i => i.path?.length || i.kind === 'validation')
  if (!inner.length) return [issue]
  const path = issue.path ?? []
  return inner
    .map(i => ({ ...i, path: [...path, ...(i.path ?? [])] }) as v.BaseIssue<unknown>)
    .flatMap(meant)
}

/** The version a newer action wrote: refused before anything else, since its keys may be new. */
function newerVersion(where: Locator, value: unknown): PolicyProblem | undefined {
  const version = (value as { version?: unknown } | null)?.version
  if (typeof version !== 'number' || version <= POLICY_VERSION) return undefined
  return {
    ...where.value(['version']),
    message: `${version} is a format written for a newer action; this one reads version ${POLICY_VERSION}. Update the action in the workflow, or write the file for version ${POLICY_VERSION}.`
  }
}

/** Where a rule across keys points: the key the file writes, else the preset that set it. */
function culprit(where: Locator, file: PolicyFile, keys: readonly PolicyKey[]): Located {
  const written = keys.find(k => file[k] !== undefined)
  return written ? where.key([written]) : where.key(['extends'])
}

/** Why a limit needs the dashboard: its ledger is what holds it. */
const LEDGER_HOLDS: Record<LedgerLimit, string> = {
  'max-jobs': 'counts the jobs and follow-ups started, so without it nothing would hold the budget',
  'max-credits':
    'counts the jobs and follow-ups the credits are estimated from, so without it nothing would hold the budget',
  'max-open': 'lists the docs pull requests open, so without it nothing would hold the cap',
  'expire-after': 'lists the docs pull requests to close, so without it none would ever be closed'
}

/**
 * `max-credits` counts the runs `credits-per-run` fits in it: none, and nothing would ever start
 * (the budget says the next place frees now, forever); more than the MAX_STARTS starts the ledger
 * keeps, and the budget would never hold. Named at the key the file writes, the other as it came.
 */
function creditProblems(
  where: Locator,
  file: PolicyFile,
  values: PolicyValues,
  from: (key: PolicyKey) => string
): PolicyProblem[] {
  const credits = values['max-credits']
  const perRun = values['credits-per-run']
  if (credits === undefined) return []
  const runs = Math.floor(credits / perRun)
  if (runs >= 1 && runs <= MAX_STARTS) return []
  const at = culprit(where, file, ['max-credits', 'credits-per-run'])
  const stated = (key: 'max-credits' | 'credits-per-run'): string =>
    `${key}: ${values[key]}${from(key)}`
  // The key a problem points at is named before its message: its value alone leads.
  const lead = (key: 'max-credits' | 'credits-per-run'): string =>
    at.key === key ? String(values[key]) : stated(key)
  const over = `${runs} jobs and follow-ups in 30 days, more than the ${MAX_STARTS} starts the dashboard's ledger keeps: the budget would never hold`
  const message =
    at.key === 'credits-per-run'
      ? runs < 1
        ? `${lead('credits-per-run')} is more than ${stated('max-credits')}: no job or follow-up would ever fit, so nothing would start. Write credits-per-run: ${credits} or less, or a higher max-credits.`
        : `${lead('credits-per-run')} lets ${stated('max-credits')} allow ${over}. Write credits-per-run: ${Math.floor(credits / (MAX_STARTS + 1)) + 1} or more, or a lower max-credits.`
      : runs < 1
        ? `${lead('max-credits')} is less than ${stated('credits-per-run')}, the estimate of one job or follow-up: none would ever fit, so nothing would start. Write max-credits: ${perRun} or more, or a lower credits-per-run.`
        : `${lead('max-credits')} at ${stated('credits-per-run')} allows ${over}. Write max-credits: ${(MAX_STARTS + 1) * perRun - 1} or less, or a higher credits-per-run.`
  return [{ ...at, message }]
}

/** The rules across keys, on the values after the preset: a preset can set one side. */
function crossKeyProblems(
  where: Locator,
  file: PolicyFile,
  values: PolicyValues,
  options: ReadOptions
): PolicyProblem[] {
  const problems: PolicyProblem[] = []
  const from = (key: PolicyKey): string =>
    file[key] !== undefined
      ? ''
      : file.extends && PRESETS[file.extends][key] !== undefined
        ? ` (from the preset ${file.extends})`
        : ' (the default)'
  problems.push(...creditProblems(where, file, values, from))
  if (values.approval === 'dashboard' && !values.dashboard)
    problems.push({
      ...culprit(where, file, ['dashboard', 'approval']),
      message: `approval: dashboard${from('approval')} needs dashboard: true: the changes wait for a tick on the dashboard issue. Write dashboard: true, or approval: none.`
    })
  if (!values.dashboard)
    for (const key of Object.keys(LEDGER_LIMITS) as LedgerLimit[]) {
      if (values[key] === undefined) continue
      // Every preset sets a limit, and no key unsets one: only leaving the preset does.
      const remove =
        file[key] === undefined && file.extends
          ? `extends: ${file.extends} (a key cannot unset what its preset sets)`
          : key
      problems.push({
        ...culprit(where, file, ['dashboard', key]),
        message: `${key}${from(key)} needs dashboard: true: the dashboard's ledger ${LEDGER_HOLDS[key]}. Write dashboard: true, or remove ${remove}.`
      })
    }
  const repositories = values['code-repositories']
  if (values.since !== undefined && !repositories.length)
    problems.push({
      // Named at since: the key leads the message.
      ...where.value(['since']),
      message: `needs code-repositories: it is how far back a code repository the dashboard has no last documented commit for is read. Remove it, or list the repositories.`
    })
  if (repositories.length && !values.dashboard)
    problems.push({
      ...culprit(where, file, ['dashboard', 'code-repositories']),
      message: `code-repositories needs dashboard: true: the dashboard's ledger keeps each code repository's last documented commit. Write dashboard: true, or remove code-repositories.`
    })
  const seen = new Set<string>()
  repositories.forEach((entry, i) => {
    const name = typeof entry === 'string' ? entry : entry.repository
    const key = repositoryKey(name)
    const at = where.value(
      typeof entry === 'string' ? ['code-repositories', i] : ['code-repositories', i, 'repository']
    )
    if (seen.has(key))
      problems.push({
        ...at,
        message: `lists ${name} a second time: keep one entry per repository.`
      })
    seen.add(key)
    if (options.repository && key === repositoryKey(options.repository))
      problems.push({
        ...at,
        message: `${name} is the repository this workflow runs in: its merges are the docs themselves, never documented again. List the code repositories only, or remove code-repositories to document this repository's own changes.`
      })
  })
  return problems
}

/**
 * The policy a file's text sets, or a PolicyError naming each problem's line and key: YAML that
 * does not parse, a key set twice, a tag or an alias where a glob was meant, an unknown key, a
 * wrong value, a version of a newer action, a rule across keys. `file` is the path the messages
 * name. The YAML parser is loaded here only, when there is a file to read.
 */
export async function readPolicy(
  text: string,
  file: string,
  options: ReadOptions = {}
): Promise<Policy> {
  const size = bytes(text)
  if (size > MAX_POLICY_BYTES)
    throw new PolicyError(file, [
      {
        message: `is ${Math.ceil(size / 1024)} KB; a policy file is at most ${MAX_POLICY_BYTES / 1024} KB. Is the path the policy file's?`
      }
    ])
  const yaml = await import('yaml')
  const lines = new yaml.LineCounter()
  const doc = yaml.parseDocument(text, {
    lineCounter: lines,
    prettyErrors: false,
    uniqueKeys: true,
    stringKeys: true,
    merge: false,
    version: '1.2',
    schema: 'core'
  })
  const where = new Locator(text, doc, lines)
  // One problem a line: what follows a broken line is often the same mistake, seen again.
  const syntax: PolicyProblem[] = []
  for (const error of doc.errors) {
    const at = where.at(error.pos[0])
    if (syntax.some(p => p.line === at.line)) continue
    const line = text.split('\n')[(at.line ?? 1) - 1] ?? ''
    syntax.push({
      // The innermost path of broken YAML may be what the parser made of it: name the key only.
      ...where.at(error.pos[0], pathName(where.pathAt(error.pos[0]).slice(0, 1))),
      message: syntaxMessage(error.code, error.message, line)
    })
  }
  if (syntax.length) throw new PolicyError(file, syntax)
  const nodes = nodeProblems(yaml, where)
  if (nodes.length) throw new PolicyError(file, inOrder(nodes))
  let value: unknown
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {}
  } catch {
    // The one error toJS throws once the aliases resolve: too many of them.
    throw new PolicyError(file, [
      {
        message: `its aliases (*name) expand to more than ${MAX_ALIAS_COUNT} values: write the lists out.`
      }
    ])
  }
  if (typeof value !== 'object' || Array.isArray(value))
    throw new PolicyError(file, [
      {
        ...where.at(doc.contents?.range[0] ?? 0),
        message: `must be a mapping of keys such as extends: standard; got ${shown(value)}.`
      }
    ])
  const newer = newerVersion(where, value)
  if (newer) throw new PolicyError(file, [newer])
  // valibot names the first unknown key of a mapping; name them all, the file's own mistakes first.
  const unknown = Object.keys(value as object)
    .filter(name => !Object.hasOwn(POLICY_SCHEMA.entries, name))
    .map(name => ({ ...where.key([name]), message: unknownKeyMessage(name) }))
  const parsed = v.safeParse(POLICY_SCHEMA, value, { abortPipeEarly: true })
  if (!parsed.success || unknown.length)
    throw new PolicyError(
      file,
      inOrder([
        ...unknown,
        ...(parsed.issues ?? [])
          .filter(i => !(i.type === 'strict_object' && i.path?.length === 1))
          .flatMap(meant)
          .map(i => issueProblem(where, i))
      ])
    )
  const values = policyValues(parsed.output)
  const rules = crossKeyProblems(where, parsed.output, values, options)
  if (rules.length) throw new PolicyError(file, inOrder(rules))
  return resolvePolicy(values, file)
}
