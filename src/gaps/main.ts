import * as core from '@actions/core'
import { writeFileAtomically } from '../action/atomic-file.js'
import { cancelOnSignals } from '../action/cancel.js'
import { GapsOutput } from '../action/names.js'
import { coreLogger, describeError, writeSummary } from '../action/runner.js'
import { counted } from '../action/words.js'
import type { ApiClient } from '../mintlify/client.js'
import { openClient } from '../mintlify/open-client.js'
import { collectGaps } from './collect.js'
import { gapsPrompt } from './prompt.js'
import { type GapsReport, gapCounts, renderJson } from './report.js'
import { type GapsSettings, readGapsSettings } from './settings.js'
import { rangeText } from '../action/dates.js'
import { FULL_OPTIONS, SUMMARY_OPTIONS, renderGapsMarkdown } from './summary.js'

/** The docs-gaps report: validate inputs, read the signals within the budget, write, report. */
export async function run(): Promise<void> {
  const cancel = cancelOnSignals()
  let settings: GapsSettings | undefined
  let client: ApiClient | undefined
  try {
    settings = readGapsSettings()
    client = openClient(settings, coreLogger, cancel.signal)
    const range = rangeText(settings.dateFrom?.text ?? null, settings.dateTo?.text ?? null)
    core.info(
      `Reading docs gaps of project ${settings.projectId} (${range}): ${settings.signals.join(', ')}, in at most ${settings.maxRequests} requests.`
    )
    const report = await collectGaps(client, settings, coreLogger)
    const file = settings.outputFileShown
    await writeFileAtomically(
      settings.outputFile,
      settings.format === 'markdown'
        ? renderGapsMarkdown(report, { ...FULL_OPTIONS, file })
        : renderJson(report)
    )
    const counts = gapCounts(report)
    core.setOutput(GapsOutput.Searches, String(counts.searches))
    core.setOutput(GapsOutput.Feedback, String(counts.feedback))
    core.setOutput(GapsOutput.Unanswered, String(counts.unanswered))
    core.setOutput(GapsOutput.Total, String(counts.total))
    core.setOutput(GapsOutput.Prompt, counts.total > 0 ? gapsPrompt(report) : '')
    core.setOutput(GapsOutput.File, file)
    core.setOutput(GapsOutput.Requests, String(report.requests))
    core.setOutput(GapsOutput.Complete, String(report.complete))
    if (!report.complete) core.warning(incompleteMessage(report))
    core.info(
      `Found ${counted(counts.searches, 'search term')} with no click, ${counted(counts.feedback, 'page')} with thumbs-down and ` +
        `${counted(counts.unanswered, 'unanswered question')} in ${counted(report.requests, 'request')}; wrote ${file}.`
    )
    await writeSummary(renderGapsMarkdown(report, { ...SUMMARY_OPTIONS, file }))
  } catch (error) {
    core.setFailed(describeError(error, [settings?.apiKey]))
  } finally {
    cancel.dispose()
    await client?.close()
  }
}

function incompleteMessage(report: GapsReport): string {
  const parts = (['searches', 'feedback', 'assistant'] as const)
    .map(key => [key, report[key]] as const)
    .filter(([, section]) => section && !section.complete)
    .map(([key, section]) => `${key} ${section?.unread}`)
  return `Not everything was read: ${parts.join('; ')}. The report and outputs hold what was read (complete: false).`
}
