// The Diplomacy map: draws the shapes of map-shapes.ts as SVG (regions by kind, centres in their owner's colour,
// units, the last phase's orders as arrows, bounces and dislodgements) with a legend. No logic of its own.
import { type ReactNode, useState } from 'react';
import type { MapShapes, MarkShape, OrderShape, UnitShape } from './map-shapes.js';

const colourOf = (shapes: MapShapes, power: string) => shapes.powers.find((p) => p.power === power)?.colour ?? '#868e96';

function Cross({ x, y, size, className }: { x: number; y: number; size: number; className: string }) {
  return (
    <g className={className}>
      <line x1={x - size} y1={y - size} x2={x + size} y2={y + size} />
      <line x1={x - size} y1={y + size} x2={x + size} y2={y - size} />
    </g>
  );
}

function UnitGlyph({ unit, colour }: { unit: Pick<UnitShape, 'type' | 'x' | 'y'>; colour: string }) {
  const { x, y } = unit;
  return (
    <>
      {unit.type === 'A' ? (
        <circle cx={x} cy={y} r={11} fill={colour} className="dm-unit-body" />
      ) : (
        <path
          d={`M${x - 13},${y - 5} L${x + 13},${y - 5} L${x + 9},${y + 8} L${x - 9},${y + 8} Z`}
          fill={colour}
          className="dm-unit-body"
        />
      )}
      <text x={x} y={y + (unit.type === 'A' ? 4.5 : 3.5)} className="dm-unit-letter">
        {unit.type}
      </text>
    </>
  );
}

function OrderGlyph({ order, colour }: { order: OrderShape; colour: string }) {
  const className = `dm-order dm-${order.kind}${order.failed ? ' dm-failed' : ''}`;
  return (
    <g
      className={className}
      data-testid="dm-order"
      data-kind={order.kind}
      data-from={order.from}
      data-to={order.to ?? ''}
      data-result={order.result}
      stroke={colour}
    >
      <title>{`${order.power}: ${order.text} (${order.result})`}</title>
      {order.line ? <line {...order.line} /> : null}
      {order.head ? <polygon points={order.head} fill={colour} /> : null}
      {order.ring ? <circle cx={order.ring.x} cy={order.ring.y} r={order.ring.r} fill="none" /> : null}
    </g>
  );
}

function Mark({ mark }: { mark: MarkShape }) {
  const common = { 'data-testid': 'dm-mark', 'data-kind': mark.kind, 'data-province': mark.province };
  let body: ReactNode;
  if (mark.kind === 'bounce') body = <Cross x={mark.x} y={mark.y} size={6} className="dm-bounce" />;
  else if (mark.kind === 'disband') body = <Cross x={mark.x} y={mark.y} size={9} className="dm-disband" />;
  else if (mark.kind === 'dislodged') body = <circle cx={mark.x} cy={mark.y} r={16} className="dm-dislodged" />;
  else
    body = (
      <g className="dm-convoy-mark">
        <circle cx={mark.x} cy={mark.y} r={7} />
        <text x={mark.x} y={mark.y + 3.5}>
          C
        </text>
      </g>
    );
  return (
    <g {...common}>
      <title>{mark.title}</title>
      {body}
    </g>
  );
}

/** One legend symbol: a small SVG beside its words. */
function Key({ label, children, viewBox = '0 0 36 20' }: { label: string; children: ReactNode; viewBox?: string }) {
  return (
    <li>
      <svg viewBox={viewBox} width="36" height="20" aria-hidden="true" className="dm-key">
        {children}
      </svg>
      {label}
    </li>
  );
}

function Legend({ shapes, seatOf }: { shapes: MapShapes; seatOf: (power: string) => string | null }) {
  const ink = '#343a40';
  return (
    <div className="dm-legend" data-testid="dm-legend">
      <ul className="dm-legend-powers" aria-label="Powers">
        {shapes.powers.map((p) => (
          <li key={p.power} data-testid="dm-legend-power" data-power={p.power}>
            <span className="dm-swatch" style={{ background: p.colour }} />
            <span>
              <span className="strong">{p.power}</span>
              <span className="muted">{`${seatOf(p.power) ? ` · ${seatOf(p.power)}` : ''} · ${p.centres} centres, ${p.units} units`}</span>
            </span>
          </li>
        ))}
      </ul>
      <ul className="dm-legend-keys" aria-label="Map symbols">
        <Key label="army / fleet" viewBox="0 0 63 35">
          <UnitGlyph unit={{ type: 'A', x: 14, y: 17 }} colour="#868e96" />
          <UnitGlyph unit={{ type: 'F', x: 46, y: 17 }} colour="#868e96" />
        </Key>
        <Key label="supply centre (owner's colour)">
          <circle cx={18} cy={10} r={5.5} className="dm-centre" fill="#fff" />
        </Key>
        <Key label="move">
          <g className="dm-order dm-move" stroke={ink}>
            <line x1={3} y1={10} x2={25} y2={10} />
            <polygon points="34,10 23,4 23,16" fill={ink} />
          </g>
        </Key>
        <Key label="support">
          <g className="dm-order dm-support" stroke={ink}>
            <line x1={3} y1={10} x2={33} y2={10} />
          </g>
        </Key>
        <Key label="convoy">
          <g className="dm-order dm-convoy" stroke={ink}>
            <line x1={3} y1={10} x2={24} y2={10} />
          </g>
          <g className="dm-convoy-mark">
            <circle cx={28} cy={10} r={7} />
            <text x={28} y={13.5}>
              C
            </text>
          </g>
        </Key>
        <Key label="hold">
          <circle cx={18} cy={10} r={8} fill="none" stroke={ink} className="dm-order dm-hold" />
        </Key>
        <Key label="bounced / failed">
          <g className="dm-order dm-move dm-failed" stroke={ink}>
            <line x1={3} y1={10} x2={25} y2={10} />
          </g>
          <Cross x={29} y={10} size={5} className="dm-bounce" />
        </Key>
        <Key label="dislodged">
          <circle cx={18} cy={10} r={8} className="dm-dislodged" />
        </Key>
        <Key label="retreat">
          <g className="dm-order dm-retreat" stroke={ink}>
            <line x1={3} y1={10} x2={25} y2={10} />
            <polygon points="34,10 23,4 23,16" fill={ink} />
          </g>
        </Key>
        <Key label="build / disband">
          <circle cx={10} cy={10} r={7} fill="none" stroke={ink} className="dm-order dm-build" />
          <Cross x={27} y={10} size={5} className="dm-disband" />
        </Key>
        <Key label="sea / coast / inland / impassable">
          <rect x={0} y={3} width={9} height={14} className="dm-sea" />
          <rect x={9} y={3} width={9} height={14} className="dm-coast" />
          <rect x={18} y={3} width={9} height={14} className="dm-land" />
          <rect x={27} y={3} width={9} height={14} className="dm-impassable" />
        </Key>
      </ul>
    </div>
  );
}

export function DiplomacyMap({ shapes, seatOf }: { shapes: MapShapes; seatOf: (power: string) => string | null }) {
  const [showBorders, setShowBorders] = useState(false);
  const caption = shapes.ordersOf
    ? `Units and supply centres now; arrows: the orders of ${shapes.ordersOf.id} (${shapes.ordersOf.type}).`
    : 'The starting position: no orders yet.';
  return (
    <figure className="dm" data-testid="dm-map" data-orders-of={shapes.ordersOf?.id ?? ''}>
      <svg
        viewBox={`0 0 ${shapes.width} ${shapes.height}`}
        className="dm-svg"
        role="img"
        aria-label={`Diplomacy map. ${caption}`}
        preserveAspectRatio="xMidYMid meet"
      >
        <rect x={0} y={0} width={shapes.width} height={shapes.height} className="dm-off" />
        {shapes.impassable.map((r) => (
          <path key={r.name} d={r.path} className="dm-region dm-impassable">
            <title>{`${r.name} (impassable)`}</title>
          </path>
        ))}
        {shapes.provinces.map((p) => (
          <g key={p.id} data-testid="dm-province" data-province={p.id} data-kind={p.kind}>
            <title>{`${p.name} (${p.id})${p.centre ? `, supply centre${p.owner ? ` of ${p.owner}` : ', neutral'}` : ''}`}</title>
            <path d={p.path} className={`dm-region dm-${p.kind}`} />
            {p.owner ? <path d={p.path} fill={colourOf(shapes, p.owner)} className="dm-owned" /> : null}
          </g>
        ))}
        {showBorders ? (
          <g data-testid="dm-borders">
            {shapes.borders.map((b) => (
              <line key={`${b.a}-${b.b}`} {...b.line} className={`dm-border dm-border-${b.by}`} />
            ))}
          </g>
        ) : null}
        {/* Arrows under the names, so a name an arrow crosses stays readable. */}
        {shapes.orders.map((o) => (
          <OrderGlyph key={`${o.from}-${o.kind}-${o.text}`} order={o} colour={colourOf(shapes, o.power)} />
        ))}
        {shapes.provinces.map((p) => (
          <text key={p.id} x={p.label.x} y={p.label.y} className={`dm-label dm-label-${p.kind}`}>
            {p.id}
          </text>
        ))}
        {shapes.provinces.map((p) =>
          p.centre ? (
            <circle
              key={p.id}
              cx={p.centre.x}
              cy={p.centre.y}
              r={5.5}
              className="dm-centre"
              fill={p.owner ? colourOf(shapes, p.owner) : '#fff'}
              data-testid="dm-centre"
              data-province={p.id}
              data-owner={p.owner ?? ''}
            />
          ) : null,
        )}
        {shapes.units.map((u) => (
          <g
            key={`${u.at}-${u.dislodged}`}
            className={u.dislodged ? 'dm-unit dm-unit-dislodged' : 'dm-unit'}
            data-testid="dm-unit"
            data-at={u.at}
            data-power={u.power}
            data-type={u.type}
            data-dislodged={u.dislodged}
          >
            <title>{`${u.power} ${u.type === 'A' ? 'army' : 'fleet'} in ${u.at}${u.dislodged ? ' (dislodged)' : ''}`}</title>
            <UnitGlyph unit={u} colour={colourOf(shapes, u.power)} />
          </g>
        ))}
        {shapes.marks.map((m) => (
          <Mark key={`${m.kind}-${m.province}-${m.x}-${m.y}`} mark={m} />
        ))}
      </svg>
      <figcaption className="muted small dm-caption" data-testid="dm-caption">
        <span>{caption}</span>
        <label className="dm-borders-toggle">
          <input type="checkbox" checked={showBorders} onChange={(event) => setShowBorders(event.target.checked)} />
          Show the borders (the regions are a sketch): brown for armies, dashed blue for fleets, purple for both
        </label>
      </figcaption>
      <Legend shapes={shapes} seatOf={seatOf} />
    </figure>
  );
}
