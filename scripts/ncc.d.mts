export declare const ROOT: string
export declare const COMPILED: string
export declare function compileSources(): void
export declare function compiledPath(source: string): string
export declare function nccBundle(input: string, outFile: string, name?: string): Promise<number>
