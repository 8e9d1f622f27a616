// The renderer's side of the playables registry: every playable id (engine/core/playables.ts) has a board view,
// shipped in its own folder beside its rules (games/<game>/board-view.tsx, challenges/<id>/board-view.tsx). A unit
// test checks that this list and the engine's registry name the same ids.
import type { ReactNode } from 'react';
import { diningView } from '../../../../challenges/dining-cryptographers/board-view.js';
import { millionaireView } from '../../../../challenges/millionaire/board-view.js';
import { psiView } from '../../../../challenges/psi/board-view.js';
import { ultimatumView } from '../../../../challenges/ultimatum/board-view.js';
import type { BoardViewEntry } from '../../../../engine/core/board.js';
import { diplomacyView } from '../../../../games/diplomacy/board-view.js';
import { lasVegasView } from '../../../../games/las-vegas/board-view.js';
import { liarsDiceView } from '../../../../games/liars-dice/board-view.js';
import { mafiaView } from '../../../../games/mafia/board-view.js';
import { monopolyView } from '../../../../games/monopoly/board-view.js';

// biome-ignore lint/suspicious/noExplicitAny: each board has its own state type; the pane pairs a model with its own view.
export type AnyBoardView = BoardViewEntry<any, ReactNode>;

const VIEWS: readonly AnyBoardView[] = [
  psiView,
  ultimatumView,
  millionaireView,
  diningView,
  liarsDiceView,
  lasVegasView,
  mafiaView,
  diplomacyView,
  monopolyView,
];

export const BOARD_VIEWS: ReadonlyMap<string, AnyBoardView> = new Map(VIEWS.map((v) => [v.model.id, v]));

export function boardViewFor(playable: string): AnyBoardView | undefined {
  return BOARD_VIEWS.get(playable);
}
