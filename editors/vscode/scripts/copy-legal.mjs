// Copies the repository's LICENSE and NOTICE next to package.json, where vsce packs them from
// (the copies are build output, ignored by git; the originals stay the only ones edited).
import { copyFileSync } from "fs";
import { dirname, join } from "path";
import { fileURLToPath } from "url";

const extension = join(dirname(fileURLToPath(import.meta.url)), "..");
for (const name of ["LICENSE", "NOTICE"]) {
  copyFileSync(join(extension, "..", "..", name), join(extension, name));
}
