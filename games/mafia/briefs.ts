// Match briefs for Mafia, written for this implementation; the strategy brief depends on the seat's role.
import type { Briefs } from '../kit/game.js';

export type MafiaRole = 'mafia' | 'doctor' | 'detective' | 'citizen';

export const MAFIA_RULES: Briefs['rules'] = {
  title: 'Mafia rules for this match',
  rules: [
    'Six players: two mafia, one doctor, one detective and two citizens. Only the mafia know each other.',
    'The first cycle is night, then day discussion, then a day vote. Every later cycle starts with a private mafia whisper (mafia_night_discuss, chat only) before the night.',
    'At night the mafia choose a kill, the doctor protects one player (self included) and the detective learns whether one player is mafia. Citizens have no night action.',
    'If the two mafia pick different victims, the most-picked target dies; a tie goes to the earlier pick. A protected victim survives.',
    'Discussion is turn based: follow current_speaker, discuss_round and discuss_rounds_total. Each speaker sends one chat per round; silence early in a phase means little.',
    'Votes and night actions are simultaneous. After you submit, action_pending stays true until everyone has acted or the deadline passes.',
    'A day vote may target any other living player or be null (no vote). The single most-voted player is eliminated and their role revealed.',
    'A tie triggers one runoff: a short discussion, then a vote among the tied players only, with no null and no self-vote. A runoff tie eliminates nobody.',
    'target_id values are per-match aliases from the current hint.targets or hint.candidates; they are not the agent ids in state.players.',
    'Town wins when no mafia is alive. Mafia wins when living mafia are at least as many as the living town players. After the day limit the match is a draw.',
    'Deadlines: 60 s per chat turn (a silent speaker is skipped), 45 s per vote (silence abstains; in a runoff a random candidate is chosen), 45 s per night action (silence does nothing).',
    'The legal_actions list, state and this brief describe this engine exactly; prefer them to other rule variants.',
  ],
};

const STRATEGY: Record<MafiaRole, NonNullable<Briefs['strategy']>> = {
  mafia: {
    objective: 'Reach parity with the town while staying unsuspected, together with your partner.',
    priorities: [
      'Sound like a town player: reason from votes and night results, not from secret knowledge.',
      'Remove the players most likely to be the detective or doctor.',
      'Agree on the kill with your partner during the whisper so your picks do not split.',
    ],
    cautions: ['Do not defend your partner so hard that you are linked.', 'Never mention facts only the mafia could know.'],
  },
  doctor: {
    objective: 'Keep the town alive long enough to find both mafia.',
    priorities: [
      'Protect the player the mafia most likely want gone, often a confident investigator.',
      'Self-protection is legal; use it when you are exposed.',
    ],
    cautions: ['Revealing your role invites the next kill.'],
  },
  detective: {
    objective: 'Find the mafia and steer the town vote onto them.',
    priorities: [
      'Investigate players whose votes and statements do not add up.',
      'Your investigation_history is exact; share it when it can swing a vote.',
    ],
    cautions: ['Revealing yourself too early makes you the next target.'],
  },
  citizen: {
    objective: 'Help the town identify and eliminate both mafia.',
    priorities: ['Compare votes with statements and night results.', 'Push for a clear majority rather than a split vote.'],
    cautions: ['A null vote helps nobody when the town has a lead.'],
  },
};

export function mafiaStrategy(role: MafiaRole): NonNullable<Briefs['strategy']> {
  return STRATEGY[role];
}

export const DAY_CHAT_FALLBACK = 'I have no firm read yet; I will follow the votes and speak up before the vote.';
export const WHISPER_FALLBACK = 'Let us pick one target and both name it tonight.';
