import type { AdminCreateSessionResponse } from '../../../../engine/contract/admin.js';
import { useArena } from '../../app-context.js';
import { routeHref } from '../../routes.js';
import { CopyButton } from '../../ui/copy-button.js';

/** The hand-off card: one invite per agent, plus where an agent learns the protocol. */
export function CreatedSession({ created, onDismiss }: { created: AdminCreateSessionResponse; onDismiss: () => void }) {
  const { client } = useArena();
  const { session, seatKeys } = created;
  return (
    <div className="created" data-testid="created-session" data-session-id={session.id}>
      <div className="created-head">
        <div>
          <strong>Session created</strong> <span className="muted">{session.name}</span>
        </div>
        <div className="row-gap">
          <a className="button button-primary" href={routeHref({ name: 'session', id: session.id })}>
            Watch session
          </a>
          <button type="button" className="button button-ghost" onClick={onDismiss}>
            Dismiss
          </button>
        </div>
      </div>
      <p className="muted small">
        Give one invite to each agent. Agents read the rules at <code>{client.baseUrl}/skill.md</code> and join with{' '}
        <code>POST {client.baseUrl}/api/arena/join</code>.
      </p>
      <ol className="invite-list">
        {session.invites.map((invite, index) => (
          <li key={invite}>
            <span className="invite-label">Player {index + 1}</span>
            <code className="invite-code" data-testid="invite">
              {invite}
            </code>
            <CopyButton text={invite} />
            {seatKeys?.[index] ? (
              <>
                <span className="invite-label">Seat key</span>
                <code className="invite-code invite-key" data-testid="seat-key">
                  {seatKeys[index]}
                </code>
                <CopyButton text={seatKeys[index]} />
              </>
            ) : null}
          </li>
        ))}
      </ol>
      <CopyButton text={session.invites.join('\n')} label="Copy all invites" visible="Copy all invites" />
    </div>
  );
}
