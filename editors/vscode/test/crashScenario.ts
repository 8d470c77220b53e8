// Child process of activation.test: activates the extension with a server that crashes at once,
// waits, and prints {errors, stray} (messages shown; unhandled rejections inside the client).
import { activateWith, policy } from "./harness";

const stray: string[] = [];
process.on("unhandledRejection", (e) => stray.push(String((e as { code?: string }).code ?? (e as Error).stack ?? e)));

void (async () => {
  const { state, ext } = await activateWith({ path: process.argv[2] });
  await new Promise((r) => setTimeout(r, 4000));
  // Another policy file after the user was told: nothing starts until the Restart command.
  state.openDocument({ uri: "file:///another.yaml", languageId: "yaml", text: policy });
  await new Promise((r) => setTimeout(r, 1000));
  await Promise.resolve(ext.deactivate()).catch(() => undefined);
  console.log(JSON.stringify({ errors: state.errors, stray }));
  process.exit(0);
})();
