import type { BuildOptions, Plugin } from 'esbuild'
export declare const BASE_OPTIONS: BuildOptions
export declare const pureModules: Plugin
