// Ratings and statistics (spec "tournaments and ratings" §4–§8). Pure functions over GameRecord lists.
export * from './bradley-terry.js';
export * from './charts.js';
export * from './elo.js';
export * from './exact-intervals.js';
export * from './game-record.js';
export * from './outcomes.js';
export * from './profile-intervals.js';
export * from './rank-ranges.js';
export * from './rated-games.js';
export * from './rating-intervals.js';
export * from './report.js';
export * from './score-means.js';
export * from './special-functions.js';
export * from './sprt.js';
export * from './tally.js';
export * from './termination.js';
export * from './wdl.js';
