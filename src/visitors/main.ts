import { runServiceStep } from '../mintlify/connection.js'
import { coreRunner } from '../runner/core-runner.js'
import { Redactor } from '../runner/redact.js'
import type { Runner } from '../runner/runner.js'
import { counted, formatCount } from '../runner/text.js'
import { type ExportResult, exportVisitors } from './export.js'
import { ExportFile } from './file.js'
import { VisitorsOutput } from './names.js'
import { type VisitorsSettings, readVisitorsSettings } from './settings.js'
import { aiShare, renderVisitorsSummary } from './summary.js'

/** The visitors export: validate inputs, page through the service into a file, report. */
export async function run(runner: Runner = coreRunner()): Promise<void> {
  const { log, clock } = runner
  await runServiceStep(runner, readVisitorsSettings, async (settings, client, step) => {
    const dateFrom = settings.dateFrom?.text
    const dateTo = settings.dateTo?.text
    log.info(
      `Exporting unique visitors of project ${settings.projectId} (${dateFrom ?? 'start'} to ${dateTo ?? 'now'}, exclusive).`
    )
    const file = new ExportFile(settings.outputFile, settings.format, {
      dateFrom: dateFrom ?? null,
      dateTo: dateTo ?? null,
      exportedAt: new Date(clock.wallNow()).toISOString(),
      offset: settings.offset
    })
    let committed = false
    step.onFailure(async () => {
      if (committed) return ''
      await file.discard()
      return `Nothing was written to ${settings.outputFileShown}; an earlier file there is as it was.`
    })
    const result = await exportVisitors(
      client,
      { ...settings, dateFrom, dateTo, deadline: clock.now() + settings.timeoutMs },
      file,
      log
    )
    const complete = result.skipped === 0 && result.nextOffset === null
    await file.commit({ complete, nextOffset: result.nextOffset })
    committed = true
    const { totals } = result
    // The rows were redacted as they came, but the chart's labels drop characters (`<`, `#`, `;`)
    // that can split a secret the service echoed: what is written is redacted as it is written.
    const clean = new Redactor([settings.apiKey]).text
    const setOutput = (name: string, value: string): void => runner.setOutput(name, clean(value))
    setOutput(VisitorsOutput.Human, String(totals.human))
    setOutput(VisitorsOutput.Ai, String(totals.ai))
    setOutput(VisitorsOutput.Total, String(totals.total))
    setOutput(VisitorsOutput.Pages, String(result.rows))
    setOutput(VisitorsOutput.File, settings.outputFileShown)
    setOutput(VisitorsOutput.TopPaths, JSON.stringify(result.top.map(r => r.path)))
    setOutput(VisitorsOutput.Complete, String(complete))
    setOutput(VisitorsOutput.NextOffset, result.nextOffset?.toString() ?? '')
    if (result.nextOffset !== null) log.warning(stoppedMessage(settings, result))
    if (result.skipped > 0)
      log.warning(
        `The export is not complete: ${counted(result.skipped, 'row')} the service sent did not match its API document and ${result.skipped === 1 ? 'was' : 'were'} left out (first: ${result.firstSkipped}). The file and outputs hold the other rows (complete: false).`
      )
    log.info(
      `Wrote ${counted(result.rows, 'page')} to ${settings.outputFileShown} in ${counted(result.requests, 'request')}${rowsText(settings.offset, result)}: ` +
        `${totals.human} human, ${totals.ai} AI, ${totals.total} in all (AI share ${aiShare(totals)}).`
    )
    await runner.summary(
      clean(
        renderVisitorsSummary({
          ...result,
          dateFrom,
          dateTo,
          sortBy: settings.sortBy,
          file: settings.outputFileShown,
          offset: settings.offset,
          resume: result.nextOffset === null ? null : resumeText(settings, result)
        })
      )
    )
  })
}

/** The rows a run read, by offset, when it did not start at the first or stopped before the last. */
function rowsText(offset: number, result: ExportResult): string {
  if (offset === 0 && result.nextOffset === null) return ''
  const last = result.nextOffset === null ? 'the last' : String(result.nextOffset - 1)
  return ` (offset ${offset} to ${last})`
}

/** How a later run goes on from where this one stopped. */
function resumeText(settings: VisitorsSettings, result: ExportResult): string {
  return (
    `To go on, run the export again with 'offset: ${result.nextOffset}' (the next-offset output) and another 'output-file'` +
    `; each run of ${counted(settings.maxRequests, 'request')} exports up to ${formatCount(settings.maxRequests * settings.pageSize)} rows, and the organisation may make 100 analytics requests an hour.`
  )
}

function stoppedMessage(settings: VisitorsSettings, result: ExportResult): string {
  return (
    `The export stopped before the last row: ${result.stopped}. ${settings.outputFileShown} holds the ${counted(result.rows, 'row')} read${rowsText(settings.offset, result)}, and complete is false. ` +
    resumeText(settings, result)
  )
}
