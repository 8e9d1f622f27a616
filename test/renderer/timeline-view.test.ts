// The timeline pane rendered server-side: an empty finished game says nothing was recorded (a live one that nothing
// has happened yet), and a line with a readable sentence shows it with the recorded text one click away.
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { buildTimeline, type TimelineEntry } from '../../renderer/src/features/match-viewer/timeline.js';

// Loaded by path at run time: the engine-side type check (no JSX, no DOM types) must not follow it into the renderer.
const TIMELINE_VIEW = '../../renderer/src/features/match-viewer/timeline-view.js';
const { TimelineView } = (await import(TIMELINE_VIEW)) as {
  TimelineView: FunctionComponent<{
    timeline: TimelineEntry[];
    seatAgents: string[];
    startedAt: number;
    live: boolean;
    sentence?: (e: TimelineEntry) => string | null;
  }>;
};

const render = (props: Parameters<typeof TimelineView>[0]) => renderToStaticMarkup(createElement(TimelineView, props));

describe('TimelineView', () => {
  it('tells an empty finished game from a live one that has not started', () => {
    expect(render({ timeline: [], seatAgents: ['a', 'b'], startedAt: 0, live: false })).toContain('No line was recorded for this game.');
    expect(render({ timeline: [], seatAgents: ['a', 'b'], startedAt: 0, live: true })).toContain('Nothing has happened in this game yet.');
  });

  it('shows a line as its sentence and keeps the raw event one click away', () => {
    const timeline = buildTimeline([
      {
        index: 0,
        channel: 'match',
        from: 'match',
        to: null,
        content: 'bid',
        timestamp: 5,
        data: { agent_id: 1, quantity: 2, face_value: 6 },
      },
    ]);
    const html = render({ timeline, seatAgents: ['a', 'b'], startedAt: 0, live: false, sentence: () => 'a (seat 1) bids 2 × 6' });
    expect(html).toContain('<div class="mv-body" data-testid="line-text">a (seat 1) bids 2 × 6</div>');
    expect(html).toMatch(/<details class="mv-raw small"><summary>Raw event: bid<\/summary><pre[^>]*>\{\n {2}&quot;agent_id&quot;: 1,/);
  });
});
