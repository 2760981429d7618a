// Validates glTF files with the Khronos validator and prints one JSON line per file:
// {"file", "errors", "warnings", "messages": [first few issues]}. Exit status 1 if any file has
// an error. Usage: node tools/gltf-validator/validate.mjs FILE.glb...
import { readFile } from 'node:fs/promises';
import validator from 'gltf-validator';

let failed = false;
for (const file of process.argv.slice(2)) {
  const bytes = new Uint8Array(await readFile(file));
  const report = await validator.validateBytes(bytes, { maxIssues: 100 });
  const issues = report.issues;
  console.log(JSON.stringify({
    file,
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    messages: issues.messages.slice(0, 10).map((m) => `${m.severity} ${m.code} ${m.pointer ?? ''}: ${m.message}`),
  }));
  if (issues.numErrors > 0) failed = true;
}
process.exit(failed ? 1 : 0);
