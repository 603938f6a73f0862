/**
 * GitHub's commit answer, parsed without its files' patches. The REST API always sends each file's
 * patch whole (up to about 1 MB), and no media type leaves them out; a page of 100 such files held
 * as text and then parsed would cost hundreds of megabytes. Here the answer is read as it streams
 * in and every `"patch": "…"` value is dropped (it becomes `null`) before anything is kept, so what
 * is held is the rest: names, counts, the commit's own fields.
 *
 * It works on bytes: in UTF-8, the bytes of `"` and `\` never occur inside a multi-byte character,
 * so strings can be told apart without decoding. Any key named `patch` is dropped, at any depth;
 * only files have one in this answer.
 */
export async function parseWithoutPatches(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number
): Promise<unknown> {
  const scanner = new PatchDropper(maxBytes)
  for await (const chunk of body) scanner.push(chunk)
  return JSON.parse(scanner.text())
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COLON = 0x3a
const KEY = Buffer.from('patch')
const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09

/** The byte scanner: what it keeps, and where it is in the JSON text. */
export class PatchDropper {
  private readonly kept: Buffer[] = []
  private keptBytes = 0
  private inString = false
  private escaped = false
  /** Inside a patch's value: its bytes are not kept. */
  private skipping = false
  /** The current string's first bytes, to tell the key `patch` (no longer than it). */
  private readonly head = Buffer.alloc(KEY.length + 1)
  private headLength = 0
  /** The last token was the string `patch`; then the `:` after it. */
  private afterKey = false
  private expectValue = false

  constructor(private readonly maxBytes: number) {}

  push(chunk: Uint8Array): void {
    let from = 0
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] as number
      if (this.inString) {
        if (this.escaped) this.escaped = false
        else if (b === BACKSLASH) this.escaped = true
        else if (b === QUOTE) {
          this.inString = false
          if (this.skipping) {
            this.skipping = false
            from = i + 1
          } else
            this.afterKey =
              this.headLength === KEY.length && KEY.equals(this.head.subarray(0, KEY.length))
          continue
        }
        if (!this.skipping && this.headLength <= KEY.length) this.head[this.headLength++] = b
        continue
      }
      if (b === QUOTE) {
        this.inString = true
        this.headLength = 0
        if (this.expectValue) {
          this.keep(chunk.subarray(from, i))
          this.keep(Buffer.from('null'))
          this.skipping = true
        }
        this.expectValue = false
        this.afterKey = false
      } else if (b === COLON) {
        this.expectValue = this.afterKey
        this.afterKey = false
      } else if (!isSpace(b)) {
        this.expectValue = false
        this.afterKey = false
      }
    }
    if (!this.skipping) this.keep(chunk.subarray(from))
  }

  /** The JSON text kept. */
  text(): string {
    return Buffer.concat(this.kept).toString('utf8')
  }

  private keep(bytes: Uint8Array): void {
    if (bytes.length === 0) return
    this.keptBytes += bytes.length
    if (this.keptBytes > this.maxBytes)
      throw new Error(`GitHub's answer is larger than ${this.maxBytes} bytes without its patches`)
    // A copy: the stream may reuse its chunk's memory.
    this.kept.push(Buffer.from(bytes))
  }
}
