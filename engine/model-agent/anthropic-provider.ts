// The Anthropic Messages API through the official `@anthropic-ai/sdk` client; system messages go in `system`.
// `temperature` and `seed` are not sent: the SDK (1.14) no longer offers temperature and the API has no seed.

import Anthropic from '@anthropic-ai/sdk';
import { createScrubber } from '../core/secret-scrub.js';
import type { ModelConfig } from './config.js';
import { type Completion, type CompletionRequest, type ModelProvider, toProviderError } from './provider.js';

export function createAnthropicProvider(config: ModelConfig, apiKey: string | undefined): ModelProvider {
  const scrub = createScrubber(apiKey ? [apiKey] : []);
  // An explicit key (or null) stops the client from reading ANTHROPIC_API_KEY behind the config's back.
  const client = new Anthropic({ apiKey: apiKey ?? null, baseURL: config.base_url ?? null, maxRetries: 0 });
  return {
    name: 'anthropic',
    model: config.model,
    async complete({ messages, signal, timeoutMs }: CompletionRequest): Promise<Completion> {
      const system = messages
        .filter((m) => m.role === 'system')
        .map((m) => m.content)
        .join('\n\n');
      try {
        const response = await client.messages.create(
          {
            model: config.model,
            max_tokens: config.max_tokens,
            ...(system !== '' ? { system } : {}),
            messages: messages
              .filter((m) => m.role !== 'system')
              .map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content })),
          },
          { signal, timeout: timeoutMs, maxRetries: 0 },
        );
        const text = response.content
          .filter((block) => block.type === 'text')
          .map((block) => block.text)
          .join('');
        return { text, promptTokens: response.usage.input_tokens, completionTokens: response.usage.output_tokens };
      } catch (error) {
        throw toProviderError(error, Anthropic, scrub);
      }
    },
  };
}
