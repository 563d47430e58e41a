/** The part of autocannon's API the benchmark uses (the package ships no type declarations). */
declare module 'autocannon' {
  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    setupRequest?: (req: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  }

  interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    overallRate?: number;
    timeout?: number;
    pipelining?: number;
    requests?: AutocannonRequest[];
    skipAggregateResult?: boolean;
  }

  interface AutocannonStats {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    sent?: number;
  }

  interface AutocannonResult {
    latency: AutocannonStats;
    requests: AutocannonStats;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    '2xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    duration: number;
    start: Date;
    finish: Date;
  }

  interface Autocannon {
    (opts: AutocannonOptions): Promise<AutocannonResult>;
    /** Merges results of runs made with `skipAggregateResult: true` (their raw histograms). */
    aggregateResult(results: unknown[], opts?: Partial<AutocannonOptions>): AutocannonResult;
  }

  const autocannon: Autocannon;
  export default autocannon;
  export type { AutocannonOptions, AutocannonRequest, AutocannonResult, AutocannonStats };
}
