import * as core from '@actions/core'
import { systemClock } from '../action/clock.js'
import { coreLogger, describeError, writeSummary } from '../action/runner.js'
import { openClient } from '../mintlify/open-client.js'
import type { ApiClient } from '../mintlify/client.js'
import { cancelOnSignals } from '../action/cancel.js'
import { ExportFile } from './file.js'
import { exportVisitors } from './export.js'
import { readVisitorsSettings, type VisitorsSettings } from './settings.js'
import { VisitorsOutput } from '../action/names.js'
import { counted } from '../action/words.js'
import { aiShare, renderVisitorsSummary } from './summary.js'

/** The visitors export: validate inputs, page through the service into a file, report. */
export async function run(): Promise<void> {
  const cancel = cancelOnSignals()
  let settings: VisitorsSettings | undefined
  let client: ApiClient | undefined
  let file: ExportFile | undefined
  try {
    settings = readVisitorsSettings()
    client = openClient(settings, coreLogger, cancel.signal)
    const dateFrom = settings.dateFrom?.text
    const dateTo = settings.dateTo?.text
    core.info(
      `Exporting unique visitors of project ${settings.projectId} (${dateFrom ?? 'start'} to ${dateTo ?? 'now'}, exclusive).`
    )
    file = new ExportFile(settings.outputFile, settings.format, {
      dateFrom: dateFrom ?? null,
      dateTo: dateTo ?? null,
      exportedAt: new Date().toISOString()
    })
    const result = await exportVisitors(
      client,
      { ...settings, dateFrom, dateTo, deadline: systemClock.now() + settings.timeoutMs },
      file,
      coreLogger
    )
    await file.commit()
    file = undefined
    const { totals } = result
    core.setOutput(VisitorsOutput.Human, String(totals.human))
    core.setOutput(VisitorsOutput.Ai, String(totals.ai))
    core.setOutput(VisitorsOutput.Total, String(totals.total))
    core.setOutput(VisitorsOutput.Pages, String(result.rows))
    core.setOutput(VisitorsOutput.File, settings.outputFileShown)
    core.setOutput(VisitorsOutput.TopPaths, JSON.stringify(result.top.map(r => r.path)))
    core.info(
      `Wrote ${counted(result.rows, 'page')} to ${settings.outputFileShown} in ${counted(result.requests, 'request')}: ` +
        `${totals.human} human, ${totals.ai} AI, ${totals.total} in all (AI share ${aiShare(totals)}).`
    )
    await writeSummary(
      renderVisitorsSummary({
        ...result,
        dateFrom,
        dateTo,
        sortBy: settings.sortBy,
        file: settings.outputFileShown
      })
    )
  } catch (error) {
    const kept = file
      ? ` Nothing was written to ${settings?.outputFileShown}; an earlier file there is as it was.`
      : ''
    await file?.discard()
    core.setFailed(`${describeError(error, [settings?.apiKey])}${kept}`)
  } finally {
    cancel.dispose()
    await client?.close()
  }
}
