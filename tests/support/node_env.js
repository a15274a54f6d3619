// SPDX-License-Identifier: MIT
// Emscripten's getenv sees its own environment, not node's: the tests read
// SKIN_ISA (and the library reads it at its first call), so node's is copied.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  if (typeof process === 'object' && process.env) Object.assign(ENV, process.env);
});
