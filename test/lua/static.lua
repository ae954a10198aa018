-- vrandom-lua, the static interpreter: vrandom is preloaded, so require()
-- needs neither package.cpath nor a shared object, and none can be loaded.
package.path = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/?.lua;" .. package.path
local T = require("harness")

package.cpath = ""
T.eq(type(package.preload.vrandom), "function", "vrandom is in package.preload")
T.eq(package.loaded.vrandom, nil, "vrandom not opened before require")
local ok, vrandom = pcall(require, "vrandom")
T.check(ok and type(vrandom) == "table", "require('vrandom') with package.cpath empty: "
  .. (ok and "ok" or tostring(vrandom)))
if ok then
  T.eq(package.loaded.vrandom, vrandom, "require keeps the module in package.loaded")
  T.eq(#vrandom.bytes(16), 16, "bytes(16) from the preloaded module")
  T.check(vrandom._VERSION:find("^vrandom %d") ~= nil, "_VERSION")
end
T.eq(T.searchpath("vrandom", package.cpath), nil, "no vrandom.so on the empty cpath")

-- A static binary has no dlopen: loadlib says so ("absent"), not "open".
local _, msg, where = package.loadlib("libc.so.6", "*")
T.eq(where, "absent", "package.loadlib is absent (" .. tostring(msg) .. ")")

T.done()
