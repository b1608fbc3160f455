/**
 * One half of the floor measurement (bench/index.ts): `readDirSync` + `lstatSync` over
 * the top-level folders of its share, nothing else. Reports the entries it saw.
 *
 * @module
 */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<{ root: string; share: number }>) => void) | null;
  postMessage(message: number): void;
};

scope.onmessage = (event) => {
  const { root, share } = event.data;
  let n = 0;
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const p = `${dir}/${e.name}`;
      Deno.lstatSync(p);
      n++;
      if (e.isDirectory) walk(p);
    }
  };
  let i = 0;
  for (const e of Deno.readDirSync(root)) {
    if (i++ % 2 !== share) continue;
    const p = `${root}/${e.name}`;
    Deno.lstatSync(p);
    n++;
    if (e.isDirectory) walk(p);
  }
  scope.postMessage(n);
};
