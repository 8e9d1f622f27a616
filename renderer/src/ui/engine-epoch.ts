// Bumped by the app each time the page finds its engine again after losing it (arena-client/engine-monitor.ts):
// every load watches it, so data left over from before the outage is fetched again.
import { createContext } from 'react';

export const EngineEpochContext = createContext(0);
