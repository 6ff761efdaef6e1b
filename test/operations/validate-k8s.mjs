// Validates Kubernetes objects (a JSON array on stdin) against the API schemas of kubernetes-models.
// An ES module of its own: kubernetes-models ships as ESM only, which jest's CommonJS runtime cannot load.
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const problems = [];
for (const object of JSON.parse(Buffer.concat(chunks).toString('utf8'))) {
  const [group, version] = object.apiVersion.includes('/')
    ? object.apiVersion.split('/')
    : [undefined, object.apiVersion];
  const path = group
    ? `kubernetes-models/${group}/${version}/${object.kind}`
    : `kubernetes-models/${version}/${object.kind}`;
  try {
    const Model = (await import(path))[object.kind];
    new Model(object).validate();
  } catch (err) {
    problems.push(`${object.kind}/${object.metadata?.name} (${object.apiVersion}): ${err.message}`);
  }
}
process.stdout.write(JSON.stringify({ problems }));
