import { type FileHandle, mkdir, open, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import type { VisitorCounts, VisitorRow } from '../mintlify/analytics.js'
import { partialPath } from '../action/atomic-file.js'
import { csvField } from './csv.js'
import type { FileFormat } from './formats.js'

export interface ExportMeta {
  dateFrom: string | null
  dateTo: string | null
  exportedAt: string
}

/** Where exported rows go, page by page. */
export interface RowSink {
  begin(totals: VisitorCounts): Promise<void>
  rows(rows: readonly VisitorRow[]): Promise<void>
}

/**
 * Streams the export to a temporary file beside the target and renames it into place only when
 * `commit` is called, so a failed export never leaves a half-written file under the real name.
 */
export class ExportFile implements RowSink {
  private handle?: FileHandle
  private count = 0
  private readonly temp: string

  constructor(
    private readonly file: string,
    private readonly format: FileFormat,
    private readonly meta: ExportMeta
  ) {
    this.temp = partialPath(file)
  }

  async begin(totals: VisitorCounts): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true })
    this.handle = await open(this.temp, 'w')
    if (this.format === 'csv') return this.write('path,human,ai,total\n')
    const head = JSON.stringify({ ...this.meta, totals }, null, 2).replace(/\n}$/, '')
    await this.write(`${head},\n  "visitors": [`)
  }

  async rows(rows: readonly VisitorRow[]): Promise<void> {
    if (rows.length === 0) return
    const lines =
      this.format === 'csv'
        ? rows.map(r => `${csvField(r.path)},${r.human},${r.ai},${r.total}\n`)
        : rows.map(
            (r, i) =>
              `${this.count + i === 0 ? '' : ','}\n    ${JSON.stringify({ path: r.path, human: r.human, ai: r.ai, total: r.total })}`
          )
    this.count += rows.length
    await this.write(lines.join(''))
  }

  async commit(): Promise<void> {
    if (!this.handle) throw new Error('commit before begin')
    if (this.format === 'json') await this.write(this.count ? '\n  ]\n}\n' : ']\n}\n')
    await this.handle.close()
    this.handle = undefined
    await rename(this.temp, this.file)
  }

  /** Drops the temporary file; the target is left as it was. */
  async discard(): Promise<void> {
    await this.handle?.close().catch(() => undefined)
    this.handle = undefined
    await rm(this.temp, { force: true })
  }

  private async write(text: string): Promise<void> {
    await (this.handle as FileHandle).write(text)
  }
}
