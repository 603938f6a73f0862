import { runServiceStep } from '../mintlify/connection.js'
import { writeFileAtomically } from '../runner/atomic-file.js'
import { coreRunner } from '../runner/core-runner.js'
import { Redactor } from '../runner/redact.js'
import { rangeText } from '../runner/dates.js'
import type { Runner } from '../runner/runner.js'
import { counted } from '../runner/text.js'
import type { GitHubApi } from '../github/api.js'
import { GitHubSession } from '../github/session.js'
import { collectGaps, readLimits } from './collect.js'
import { GapsInput, GapsOutput } from './names.js'
import { gapsPrompt } from './prompt.js'
import { type GapsReport, gapCounts, renderJson } from './report.js'
import { readGapsSettings } from './settings.js'
import { FULL_OPTIONS, SUMMARY_OPTIONS, renderGapsMarkdown } from './summary.js'
import { causesOutput, tieToChanges } from './tie.js'

/** The docs-gaps report: validate inputs, read the signals within the request cap, write, report. */
export async function run(runner: Runner = coreRunner()): Promise<void> {
  const { log, clock } = runner
  await runServiceStep(runner, readGapsSettings, async (settings, client, step) => {
    const range = rangeText(settings.dateFrom?.text ?? null, settings.dateTo?.text ?? null)
    log.info(
      `Reading docs gaps of project ${settings.projectId} (${range}): ${settings.signals.join(', ')}, in at most ${settings.maxRequests} requests.`
    )
    const limits = readLimits(settings, clock)
    const askedAt = new Map<string, number[]>()
    const asked = settings.changes
      ? (key: string, at: number): void => {
          const times = askedAt.get(key)
          if (times) times.push(at)
          else askedAt.set(key, [at])
        }
      : undefined
    const collected = await collectGaps(client, settings, { log, clock, limits, asked })
    if (settings.changes) {
      const changes = settings.changes
      step.secret(changes.githubToken)
      const session = new GitHubSession({ cancel: step.signal, clock })
      step.finally(() => session.close())
      const connect = (): GitHubApi =>
        session.repository(changes.githubToken, changes, GapsInput.GithubToken)
      collected.causes = await tieToChanges(collected, settings, changes, {
        client,
        github: connect,
        limits,
        askedAt,
        now: clock.wallNow()
      })
      collected.requests = limits.cap.used
    }
    // Titles, descriptions and diffs from GitHub are redacted nowhere before this, and cleaning reader
    // text can join a secret the service client's redaction did not see (a zero-width space or a
    // full-width letter inside it): the report is redacted whole before anything renders, cuts or
    // escapes it, and every text written from it once more as it is written.
    const redactor = new Redactor([settings.apiKey, settings.changes?.githubToken])
    const report = redactor.value(collected)
    const clean = redactor.text
    if (report.causes) {
      for (const notice of report.causes.notices) log.notice(notice)
      log.info(
        `Tied ${counted(report.causes.entries.length, 'gap')} to changes since ${report.causes.since} ` +
          `(${counted(report.causes.changes, 'change')} read in ${counted(report.causes.githubRequests, 'GitHub request')}; ` +
          `${counted(report.causes.splitRequests, 'analytics request')} to split counts at the merges).`
      )
    }
    const file = settings.outputFileShown
    await writeFileAtomically(
      settings.outputFile,
      clean(
        settings.format === 'markdown'
          ? renderGapsMarkdown(report, { ...FULL_OPTIONS, file })
          : renderJson(report)
      )
    )
    const counts = gapCounts(report)
    const setOutput = (name: string, value: string): void => runner.setOutput(name, clean(value))
    setOutput(GapsOutput.Searches, String(counts.searches))
    setOutput(GapsOutput.Feedback, String(counts.feedback))
    setOutput(GapsOutput.Unanswered, String(counts.unanswered))
    setOutput(GapsOutput.Total, String(counts.total))
    setOutput(GapsOutput.Prompt, counts.total > 0 ? gapsPrompt(report) : '')
    setOutput(GapsOutput.File, file)
    setOutput(GapsOutput.Requests, String(report.requests))
    setOutput(GapsOutput.Complete, String(report.complete))
    setOutput(GapsOutput.TopComplete, String(report.topComplete))
    setOutput(GapsOutput.Causes, report.causes ? causesOutput(report.causes.entries) : '')
    if (!report.complete) {
      if (report.topComplete) log.info(incompleteMessage(report))
      else log.warning(incompleteMessage(report))
    }
    log.info(
      `Found ${counted(counts.searches, 'search term')} with no click, ${counted(counts.feedback, 'page')} with thumbs-down and ` +
        `${counted(counts.unanswered, 'unanswered question')} in ${counted(report.requests, 'request')}; wrote ${file}.`
    )
    await runner.summary(clean(renderGapsMarkdown(report, { ...SUMMARY_OPTIONS, file })))
  })
}

function incompleteMessage(report: GapsReport): string {
  const parts = (['searches', 'feedback', 'assistant'] as const)
    .map(key => [key, report[key]] as const)
    .filter(([, section]) => section && !section.complete)
    .map(([key, section]) => `${key} ${section?.unread}`)
  const top = report.topComplete
    ? ` The top ${report.top} of every signal ${report.top === 1 ? 'is' : 'are'} final (top-complete: true); the counts are of what was read.`
    : ''
  return `Not everything was read: ${parts.join('; ')}. The report and outputs hold what was read (complete: false).${top}`
}
