// Tournament scheduling (spec "tournaments and ratings" §2–§3) and the tournament definition schema.
export * from './adaptive.js';
export * from './adaptive-decision.js';
export * from './formats.js';
export * from './from-spec.js';
export * from './gauntlet.js';
export * from './knockout.js';
export * from './meeting-games.js';
export * from './round-robin.js';
export * from './seeds.js';
export * from './spec.js';
export * from './swiss.js';
export * from './tables.js';
export * from './types.js';
