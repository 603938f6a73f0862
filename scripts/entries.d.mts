export declare const ENTRIES: { source: string; out: string; actions: string[] }[]
export declare const UNDICI_MARKER: string
export declare function undiciCopies(file: string): number
