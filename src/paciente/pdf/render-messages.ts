/** What the render pool and its worker threads say to each other. */
export interface RenderRequest {
  id: number;
  view: unknown;
}

export type RenderReply =
  { ready: true } | { id: number; pdf: Uint8Array } | { id: number; error: string };
