// A language server that answers initialize and then crashes (exit 3) shortly after `initialized`:
// the crash-after-start case for activation.test. Appends a line to $FAKE_SERVER_LOG per start.
import * as fs from "fs";
import { StreamMessageReader, StreamMessageWriter, createMessageConnection } from "vscode-jsonrpc/node";

fs.appendFileSync(process.env.FAKE_SERVER_LOG ?? "/dev/null", "start\n");
const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
connection.onRequest("initialize", () => ({ capabilities: {}, serverInfo: { name: "fake" } }));
connection.onNotification("initialized", () => setTimeout(() => process.exit(3), 100));
connection.listen();
