import './zod-jitless.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { type BootstrapEnv, exchangeLaunchCode, probeAdminSession } from './arena-client/bootstrap.js';
import './styles.css';

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

const env: BootstrapEnv = {
  arena: window.arena,
  location: window.location,
  history: window.history,
  storage: sessionStorageOrNull(),
  exchangeCode: (code) => exchangeLaunchCode(window.location.origin, code),
  probeSession: () => probeAdminSession(window.location.origin),
};
const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <StrictMode>
      <App env={env} shell={window.arena} />
    </StrictMode>,
  );
}
