// The published real-wire fixtures parse with the project's zod readers, and the published schemas behave as the
// conformance README documents (the only deviations are `strategy_brief: null` and `hint` instead of `hints`).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GameStateReaders, LegalActionSchema, PollResponseSchema, ReflectionContextSchema } from '../../../../engine/contract/clawarena.js';
import { CONFORMANCE, SCHEMA_IDS, schemaValidator } from './helpers.js';

const fixtureDir = path.join(CONFORMANCE, 'fixtures');
const fixtures = fs
  .readdirSync(fixtureDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, data: JSON.parse(fs.readFileSync(path.join(fixtureDir, file), 'utf8')) as Record<string, unknown> }));

describe('conformance fixtures', () => {
  it('finds all 14 upstream fixtures', () => {
    expect(fixtures).toHaveLength(14);
  });

  for (const { file, data } of fixtures.filter((f) => f.file !== 'reflection_context.json')) {
    it(`${file} parses with the poll reader and its legal actions with the action reader`, () => {
      const { _fixture, ...wire } = data;
      const parsed = PollResponseSchema.parse(wire);
      expect(parsed.is_your_turn).toBe(true);
      expect(parsed.legal_actions?.length).toBeGreaterThan(0);
      for (const action of parsed.legal_actions ?? []) {
        expect(LegalActionSchema.safeParse(action).success).toBe(true);
        expect(action.hint).toBeTypeOf('object');
      }
      const reader = GameStateReaders[parsed.game_type as keyof typeof GameStateReaders];
      if (reader) expect(() => reader.parse(parsed.state)).not.toThrow();
    });

    it(`${file} fails the JSON Schema only for the documented deviations`, () => {
      const { _fixture, ...wire } = data;
      const validate = schemaValidator(SCHEMA_IDS.poll);
      // Deviation 1: real fixtures send strategy_brief: null, which the schema (object) rejects.
      const repaired = { ...wire };
      if (repaired.strategy_brief === null) delete repaired.strategy_brief;
      expect(validate(repaired), JSON.stringify(validate.errors)).toBe(true);
      expect(validate(wire)).toBe(data.strategy_brief !== null);
    });
  }

  it('reflection_context.json parses with the reflection reader (the route itself answers 410)', () => {
    expect(() => ReflectionContextSchema.parse(fixtures.find((f) => f.file === 'reflection_context.json')?.data)).not.toThrow();
  });

  it('the poll reader rejects what the envelope rules forbid', () => {
    expect(PollResponseSchema.safeParse({ status: 'playing' }).success).toBe(false);
    expect(PollResponseSchema.safeParse({ status: 'done', is_your_turn: false }).success).toBe(false);
    expect(PollResponseSchema.safeParse({ status: 'idle', is_your_turn: false, match_id: 0 }).success).toBe(false);
    expect(PollResponseSchema.safeParse({ status: 'idle', is_your_turn: false, turn_deadline: 'tomorrow' }).success).toBe(false);
  });
});
