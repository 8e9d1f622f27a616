// Numerical helpers without dependencies: erf, the normal CDF, Student-t quantiles and sample quantiles.

/** Two-sided 95% normal quantile (as fastchess uses it). */
export const Z95 = 1.959963984540054;

const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);

/**
 * erf: the Maclaurin series below |x| = 3 (terms peak near 10^2 there, so about 13 digits survive), and for
 * larger |x| the continued fraction of erfc evaluated from the tail, which converges fast in that range.
 */
export function erf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x < 0) return -erf(-x);
  if (x >= 3) return 1 - erfc(x);
  let term = x;
  let sum = x;
  for (let n = 1; n < 200; n++) {
    term *= (-x * x) / n;
    const add = term / (2 * n + 1);
    sum += add;
    if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
  }
  return TWO_OVER_SQRT_PI * sum;
}

/** erfc(x) = 1 − erf(x) without cancellation for large x. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x < 3) return 1 - erf(x);
  // erfc(x) = exp(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))
  let f = x;
  for (let k = 80; k >= 1; k--) f = x + k / 2 / f;
  return Math.exp(-x * x) / (Math.sqrt(Math.PI) * f);
}

export function normalCdf(x: number): number {
  return x < 0 ? erfc(-x / Math.SQRT2) / 2 : 1 - erfc(x / Math.SQRT2) / 2;
}

/**
 * P(|T| ≤ t) for Student's t with integer ν, by the finite sums of Abramowitz & Stegun 26.7.3–26.7.4
 * (θ = atan(t/√ν)); exact up to rounding for every integer ν.
 */
export function studentTTwoSided(t: number, df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`degrees of freedom must be a positive integer, got ${df}`);
  const theta = Math.atan(Math.abs(t) / Math.sqrt(df));
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  const c2 = c * c;
  if (df % 2 === 1) {
    if (df === 1) return (2 * theta) / Math.PI;
    // θ + sinθ·(cosθ + (2/3)cos³θ + (2·4)/(3·5)cos⁵θ + … up to cos^(ν−2)θ)
    let term = c;
    let sum = c;
    for (let k = 1; 2 * k + 1 <= df - 2; k++) {
      term *= ((2 * k) / (2 * k + 1)) * c2;
      sum += term;
    }
    return (2 / Math.PI) * (theta + s * sum);
  }
  // sinθ·(1 + (1/2)cos²θ + (1·3)/(2·4)cos⁴θ + … up to cos^(ν−2)θ)
  let term = 1;
  let sum = 1;
  for (let k = 1; 2 * k <= df - 2; k++) {
    term *= ((2 * k - 1) / (2 * k)) * c2;
    sum += term;
  }
  return s * sum;
}

/** The p-quantile (0.5 < p < 1) of Student's t with integer ν, by bisection on the two-sided probability. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0.5 && p < 1)) throw new RangeError(`p must be in (0.5, 1), got ${p}`);
  if (df === 1) return Math.tan(Math.PI * (p - 0.5));
  const target = 2 * p - 1;
  let lo = 0;
  let hi = 2;
  while (studentTTwoSided(hi, df) < target) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (studentTTwoSided(mid, df) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Quantile q of ascending `sorted` with linear interpolation between order statistics (position q·(n − 1)). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const pos = q * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  const frac = pos - lo;
  return (sorted[lo] as number) * (1 - frac) + (sorted[hi] as number) * frac;
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms; about 15 digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const c = [
    0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406, 12.507343278686905,
    -0.13857109526572012, 9.984369578019572e-6, 1.5056327351493116e-7,
  ];
  const z = x - 1;
  let sum = c[0] as number;
  for (let i = 1; i < c.length; i++) sum += (c[i] as number) / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Continued fraction of the incomplete beta (modified Lentz), valid for x < (a + 1)/(a + b + 2). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 500; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    d = 1 / (Math.abs(d) < tiny ? tiny : d);
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    d = 1 / (Math.abs(d) < tiny ? tiny : d);
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta I_x(a, b) for a, b > 0: P(Beta(a, b) ≤ x). */
export function betaCdf(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** The q-quantile of Beta(a, b), by bisection on betaCdf (monotone; 100 halvings reach double precision). */
export function betaQuantile(q: number, a: number, b: number): number {
  if (q <= 0) return 0;
  if (q >= 1) return 1;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (betaCdf(mid, a, b) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
