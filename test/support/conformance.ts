// The conformance data vendored under test/conformance/ (sources and licences in its README). Tests read only this
// copy, so a clone of the repository runs them with nothing beside it.
import path from 'node:path';

export const CONFORMANCE_ROOT = path.resolve(import.meta.dirname, '../conformance');
