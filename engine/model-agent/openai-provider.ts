// Any OpenAI-compatible chat-completions server (Ollama, llama.cpp, LM Studio, vLLM, OpenRouter, OpenAI) through the
// official `openai` client. Its own retries are off: the turn engine retries, so every attempt is accounted for.

import OpenAI from 'openai';
import { createScrubber } from '../core/secret-scrub.js';
import type { ModelConfig } from './config.js';
import { type Completion, type CompletionRequest, type ModelProvider, toProviderError } from './provider.js';

/** Local servers ignore the key, but the client refuses to start without one. */
const NO_KEY = 'no-key';

export function createOpenAiProvider(config: ModelConfig, apiKey: string | undefined): ModelProvider {
  const scrub = createScrubber(apiKey ? [apiKey] : []);
  const client = new OpenAI({ apiKey: apiKey ?? NO_KEY, baseURL: config.base_url ?? null, maxRetries: 0 });
  return {
    name: 'openai-compatible',
    model: config.model,
    async complete({ messages, signal, timeoutMs }: CompletionRequest): Promise<Completion> {
      try {
        const response = await client.chat.completions.create(
          {
            model: config.model,
            messages: messages.map((m) => ({ role: m.role, content: m.content })),
            temperature: config.temperature,
            max_tokens: config.max_tokens,
            ...(config.seed !== undefined ? { seed: config.seed } : {}),
            ...(config.json_mode ? { response_format: { type: 'json_object' as const } } : {}),
          },
          { signal, timeout: timeoutMs, maxRetries: 0 },
        );
        return {
          text: response.choices[0]?.message?.content ?? '',
          promptTokens: response.usage?.prompt_tokens ?? 0,
          completionTokens: response.usage?.completion_tokens ?? 0,
        };
      } catch (error) {
        throw toProviderError(error, OpenAI, scrub);
      }
    },
  };
}
