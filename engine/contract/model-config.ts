// `model.yaml`: which provider and model an agent plays with, and how patient it is. The file names the environment
// variable holding the API key (`api_key_env`), never the key itself, so a config can be shared and committed. A
// contract because the runner reads its server too (the sandbox forwards it, the engine schedules its capacity).
import { z } from 'zod';
import { limitMs, limitSeconds } from './timer-limits.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const ModelConfigSchema = z
  .strictObject({
    provider: z.enum(['openai-compatible', 'anthropic']),
    /** e.g. http://127.0.0.1:11434/v1 (Ollama), https://api.openai.com/v1; the Anthropic default is its public API. */
    base_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    model: z.string().min(1, 'must name the model'),
    api_key_env: z
      .string()
      .regex(ENV_NAME, 'must be the NAME of an environment variable (e.g. OPENAI_API_KEY), not the key')
      .refine((s) => !s.startsWith('ARENA_'), 'ARENA_* variables are reserved for the runner')
      .optional(),
    temperature: z.number().min(0).max(2).default(0),
    max_tokens: z.int().min(1).max(200_000).default(512),
    /** Only providers that honour it use it (OpenAI-compatible servers; the Anthropic API has none). */
    seed: z.int().optional(),
    /** Relative to the config file. */
    system_prompt_file: z.string().min(1).optional(),
    /** Ask an OpenAI-compatible server for `response_format: json_object` (Ollama, llama.cpp, vLLM and OpenAI honour it). */
    json_mode: z.boolean().default(false),
    timeouts: z
      .strictObject({
        /** Whole turn, retries and the rethink included; ARENA_MOVE_SECONDS (the game's move limit) lowers it. */
        turn_seconds: limitSeconds().default(60),
        /** One HTTP request. */
        request_seconds: limitSeconds().default(30),
      })
      .prefault({}),
    retry: z
      .strictObject({
        /** Retries after a 429, 5xx or network error, per question. */
        max_retries: z.int().min(0).max(10).default(3),
        base_delay_ms: limitMs().default(500),
        max_delay_ms: limitMs().default(10_000),
      })
      .prefault({}),
    /** Relative to the config file; without one every call costs 0 (right for local servers). */
    price_table: z.string().min(1).optional(),
    /**
     * Requests the model server answers at once. The engine never sends it more, across every seat and game sharing
     * it; unset, the server's own report is used (llama.cpp's slots), else 1 for a local server.
     */
    capacity: z.int().min(1).max(256).optional(),
    /**
     * Answer a request identical to one answered before (same server, request body, game and turn) from the engine's
     * record instead of asking the model again; such calls cost no tokens and are counted apart. Plain-http servers only.
     */
    cache: z.boolean().default(false),
    /** Questions per game before the agent stops asking and only waits for the end (a runaway guard). */
    max_turns: z.int().min(1).default(20),
    /** After the model chose to wait or moved, ask again after this long without news. */
    idle_reask_seconds: limitSeconds().default(10),
    /** Hard cap on the whole game; the agent exits 2 past it so a stuck game never leaves a process behind. */
    game_seconds: limitSeconds().default(900),
  })
  .superRefine((c, ctx) => {
    if (c.provider === 'openai-compatible' && c.base_url === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['base_url'],
        message: 'is required for an openai-compatible provider (e.g. http://127.0.0.1:11434/v1)',
      });
    }
    if (c.provider === 'anthropic' && c.api_key_env === undefined && c.base_url === undefined) {
      ctx.addIssue({ code: 'custom', path: ['api_key_env'], message: 'is required for the hosted Anthropic API (e.g. ANTHROPIC_API_KEY)' });
    }
  });

export type ModelConfig = z.infer<typeof ModelConfigSchema>;
