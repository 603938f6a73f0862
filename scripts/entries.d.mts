export declare const ENTRIES: { source: string; out: string; action: string }[]
export declare const UNDICI_MARKER: string
export declare function loadedFiles(file: string, options?: { dynamic?: boolean }): string[]
export declare function undiciCopies(entry: string, options?: { dynamic?: boolean }): number
