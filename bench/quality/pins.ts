// What each dev-set corpus is built from, pinned: a package release (semble-dev, offline from the
// local pip wheel store and npm) or a git revision of the upstream repo (semble-dev2, from the bare
// git directory the search tool's `fetch github:owner/name` verb brings in). Changing a pin changes
// the corpus.

export interface PackagePin {
  kind: 'pip' | 'npm';
  /** Registry name (pip project or npm package). */
  pkg: string;
  version: string;
  /** Search root inside the extracted folder. */
  root: string;
}

export interface GitPin {
  kind: 'git';
  /** GitHub owner/name as `fetch github:owner/name` takes it. */
  pkg: string;
  /** The full commit exported: the annotated revision when the snapshot has it. */
  version: string;
  /** Search root inside the extracted folder: tree/ + benchmark_root. */
  root: string;
  /** Why the exported commit is not the annotated one (every labelled target was checked to exist in it). */
  note?: string;
}

export type Pin = PackagePin | GitPin;

/** semble-dev: the releases its README checked every target against. */
const DEV1: Record<string, Pin> = {
  aiohttp: { kind: 'pip', pkg: 'aiohttp', version: '3.14.3', root: 'aiohttp' },
  click: { kind: 'pip', pkg: 'click', version: '8.5.0', root: 'click' },
  fastapi: { kind: 'pip', pkg: 'fastapi', version: '0.142.2', root: 'fastapi' },
  flask: { kind: 'pip', pkg: 'flask', version: '3.1.3', root: 'flask' },
  httpx: { kind: 'pip', pkg: 'httpx', version: '0.28.1', root: 'httpx' },
  pydantic: { kind: 'pip', pkg: 'pydantic', version: '2.13.5', root: 'pydantic' },
  requests: { kind: 'pip', pkg: 'requests', version: '2.34.2', root: 'requests' },
  starlette: { kind: 'pip', pkg: 'starlette', version: '1.7.0', root: 'starlette' },
  axios: { kind: 'npm', pkg: 'axios', version: '1.21.1', root: 'package/lib' },
  express: { kind: 'npm', pkg: 'express', version: '5.3.0', root: 'package/lib' },
  redux: { kind: 'npm', pkg: 'redux', version: '5.0.1', root: 'package/src' },
  trpc: { kind: 'npm', pkg: '@trpc/server', version: '11.25.2', root: 'package/src' },
  zod: { kind: 'npm', pkg: 'zod', version: '4.6.7', root: 'package/src' },
};

const git = (pkg: string, version: string, benchmarkRoot: string | null, note?: string): GitPin => ({
  kind: 'git', pkg, version, root: benchmarkRoot ? `tree/${benchmarkRoot}` : 'tree', ...(note && { note }),
});
const AT_HEAD = (date: string): string => `the snapshot lacks the annotated revision: its HEAD (${date}) was used`;

/** semble-dev2: the annotated revisions, except where the snapshot lacks them. */
const DEV2: Record<string, Pin> = {
  'commons-lang': git('apache/commons-lang', '0ba92dc402312a38252a3398931ffbfbb4a88f7d', 'src/main/java/org/apache/commons/lang3'),
  'jackson-databind': git('FasterXML/jackson-databind', '1845f3327b56d70a247fbf0af0977065734e6695', 'src/main/java/tools/jackson/databind',
    'the snapshot lacks the annotated revision and its HEAD is the 2.x line (no tools/jackson): the tip of its 3.x branch (2025-04-16) was used'),
  'laravel-framework': git('laravel/framework', '0dcc8d2ba7f41bc8376a08e9ccd5d7b83e6a6d90', 'src/Illuminate'),
  rails: git('rails/rails', '75f9e28379ac7418b82fa950cfa81f6147275308', 'railties/lib/rails'),
  tokio: git('tokio-rs/tokio', '5db10f538b683fe88d699dfd11be31d193db011c', 'tokio/src'),
  'messagepack-csharp': git('MessagePack-CSharp/MessagePack-CSharp', '84db9f79e3ecc5f4e8b7c7f77cd15d7745f5f2a7', 'src/MessagePack',
    'repos.json names neuecc/MessagePack-CSharp, whose snapshot stops in 2021; the project moved to MessagePack-CSharp/MessagePack-CSharp, which has the annotated revision'),
  ktor: git('ktorio/ktor', '5913745a96101e8c78e47565e52d2baa8414441f', 'ktor-client/ktor-client-core/common/src'),
  cats: git('typelevel/cats', '2102251a2f24a6ee14e087fc5da7768d267f2d6e', 'core/src/main/scala'),
  phoenix: git('phoenixframework/phoenix', 'c88da921ef8009e0aca8643d5334585cd35d5573', 'lib'),
  'newtonsoft-json': git('JamesNK/Newtonsoft.Json', '4f73e74372445108d2c1bda37b36e6f5e43402e0', 'Src/Newtonsoft.Json'),
  'kotlinx-coroutines': git('Kotlin/kotlinx.coroutines', '643c1aa554139a82f60724a59e79b801f303fdfe', 'kotlinx-coroutines-core/common/src'),
  http4s: git('http4s/http4s', '95ece6c737c835587caf14658dee22862f46a28d', 'core/shared/src/main/scala', AT_HEAD('2025-10-01')),
  vapor: git('vapor/vapor', 'cfd8f434843ac7850e2d97f46c1aa5ddb906cf1c', 'Sources/Vapor'),
  ecto: git('elixir-ecto/ecto', 'cf3a5b7219a552c24aae24bf5eef7354c1184b8a', 'lib/ecto'),
  'abseil-cpp': git('abseil/abseil-cpp', 'b9536c952c6f6bbcb37a5edb4fa88ee62d27cd7e', 'absl'),
  curl: git('curl/curl', '021a87cf81638af5317e142610ea0dd9f9fb4890', 'lib'),
  redis: git('redis/redis', '4f8cdc2a1ea53e42955af758aabffee67cb455dd', 'src', AT_HEAD('2024-10-18')),
  aeson: git('haskell/aeson', 'cd59793ca2405353ecee65f25b18ad7610104914', 'src/Data/Aeson'),
  nvm: git('nvm-sh/nvm', 'd200a215594bdda07e130117c9d392fff29cba84', null),
  'bash-it': git('Bash-it/bash-it', '0f04edce0ca93fbe66f1fe23c8d9b7a01e53f94c', null, AT_HEAD('2025-10-16')),
  pandoc: git('jgm/pandoc', 'd9838eba11ae18216f52e233dbbca735f0f97ccb', 'src/Text/Pandoc'),
  'mini.nvim': git('echasnovski/mini.nvim', 'b5bae7dd5802b47bb03babfb374fdfdab02b9d8b', 'lua/mini', AT_HEAD('2025-08-29')),
  zls: git('zigtools/zls', '295cedd8ddd040c77e6666ddab6ef6da8c0beffa', 'src'),
};

/** Repos whose corpus cannot be built here: they are listed in the report and left out of every mean. */
export const UNAVAILABLE: Record<string, string> = {
  zig: 'the ziglang/zig snapshot (562 MB) is over the fetch size limit (524 MB), and no registry reached here ships lib/std at that revision',
};

export const PINS: Record<string, Pin> = { ...DEV1, ...DEV2 };
