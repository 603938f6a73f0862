import { runServiceStep } from '../mintlify/connection.js'
import { coreRunner } from '../runner/core-runner.js'
import type { Runner } from '../runner/runner.js'
import { counted } from '../runner/text.js'
import { exportVisitors } from './export.js'
import { ExportFile } from './file.js'
import { VisitorsOutput } from './names.js'
import { readVisitorsSettings } from './settings.js'
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
      exportedAt: new Date(clock.wallNow()).toISOString()
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
    await file.commit()
    committed = true
    const { totals } = result
    runner.setOutput(VisitorsOutput.Human, String(totals.human))
    runner.setOutput(VisitorsOutput.Ai, String(totals.ai))
    runner.setOutput(VisitorsOutput.Total, String(totals.total))
    runner.setOutput(VisitorsOutput.Pages, String(result.rows))
    runner.setOutput(VisitorsOutput.File, settings.outputFileShown)
    runner.setOutput(VisitorsOutput.TopPaths, JSON.stringify(result.top.map(r => r.path)))
    runner.setOutput(VisitorsOutput.Complete, String(result.skipped === 0))
    if (result.skipped > 0)
      log.warning(
        `The export is not complete: ${counted(result.skipped, 'row')} the service sent did not match its API document and ${result.skipped === 1 ? 'was' : 'were'} left out (first: ${result.firstSkipped}). The file and outputs hold the other rows (complete: false).`
      )
    log.info(
      `Wrote ${counted(result.rows, 'page')} to ${settings.outputFileShown} in ${counted(result.requests, 'request')}: ` +
        `${totals.human} human, ${totals.ai} AI, ${totals.total} in all (AI share ${aiShare(totals)}).`
    )
    await runner.summary(
      renderVisitorsSummary({
        ...result,
        dateFrom,
        dateTo,
        sortBy: settings.sortBy,
        file: settings.outputFileShown
      })
    )
  })
}
