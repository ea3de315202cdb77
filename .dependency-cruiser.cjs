/** The layout's import rules (layout.cjs), machine-checked by dependency-cruiser in `npm run lint`. */
const { layout } = require('./layout.cjs');

const byPlace = Object.fromEntries(layout.map((p) => [p.place, p]));
const ours = '^(server|shared|desktop)/';

const FEATURE_FACE = '^server/features/[^/]+/index\\.ts$';
const RENDERER_FEATURE_FACE = '^desktop/renderer/src/features/[^/]+/index\\.ts$';
const faces = {
  "another feature's index.ts": FEATURE_FACE,
  "a feature's index.ts": FEATURE_FACE,
  "another renderer feature's index.ts": RENDERER_FEATURE_FACE,
  "a renderer feature's index.ts": RENDERER_FEATURE_FACE,
};
const pathOf = (name) => faces[name] ?? byPlace[name].path;
const any = (paths) => paths.map((p) => `(${p})`).join('|');

/**
 * For each place: importing any of our folders outside itself and the places it may import is an
 * error, and so is a run-time import of a place it may import types from only (types vanish from
 * the compiled JavaScript, so production never loads, say, the sandbox through them).
 */
const placeRules = layout
  .filter((p) => !p.mayImport.includes('everything in server/'))
  .flatMap((p) => {
    const allowed = [p.path, ...p.mayImport.map(pathOf)];
    const typesOnly = (p.mayImportTypes ?? []).map(pathOf);
    const rules = [
      {
        name: `layout: ${p.place}`,
        comment: `${p.place} may import ${p.mayImport.join(', ') || 'nothing outside itself'} (README, Layout)`,
        severity: 'error',
        from: { path: p.path },
        to: { path: ours, pathNot: any([...allowed, ...typesOnly]) },
      },
    ];
    if (typesOnly.length) {
      rules.push({
        name: `layout: ${p.place} (types only)`,
        comment: `${p.place} may import types only from ${p.mayImportTypes.join(', ')} (README, Layout)`,
        severity: 'error',
        from: { path: p.path },
        to: { path: any(typesOnly), pathNot: any(allowed), dependencyTypesNot: ['type-only'] },
      });
    }
    return rules;
  });

module.exports = {
  forbidden: [
    ...placeRules,
    {
      name: 'feature public face',
      comment: "A feature is used from outside its folder only through its index.ts (README, Layout)",
      severity: 'error',
      from: { path: '^server/(?!features/)|^server/features/([^/]+)/' },
      to: { path: '^server/features/([^/]+)/(?!index\\.ts$)', pathNot: '^server/features/$1/' },
    },
    {
      name: 'renderer feature public face',
      comment: "A renderer feature is used from outside its folder only through its index.ts (README, Layout)",
      severity: 'error',
      from: { path: '^desktop/renderer/(?!src/features/)|^desktop/renderer/src/features/([^/]+)/' },
      to: { path: '^desktop/renderer/src/features/([^/]+)/(?!index\\.ts$)', pathNot: '^desktop/renderer/src/features/$1/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles, of values or of types, between files or through a folder\'s index.ts',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/|\\.d\\.ts$' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
