-- A double-ended queue, as a module table.
local M = {}
M.__index = M

local insert = require("table").insert
local fmt = require("string").format
local inspect = require("inspect")

local function check(q, i)
  if q[i] == nil then
    error(fmt("queue: no item at %d", i), 3)
  end
end

function M.new(items)
  local q = setmetatable({ first = 1, last = 0 }, M)
  for _, v in ipairs(items or {}) do
    q:push(v)
  end
  return q
end

function M:push(v)
  self.last = self.last + 1
  self[self.last] = v
end

function M:pop()
  if self.first > self.last then
    return nil
  end
  check(self, self.first)
  local v = self[self.first]
  self[self.first] = nil
  self.first = self.first + 1
  return v
end

function M:each(fn)
  for i = self.first, self.last do
    fn(self[i])
  end
end

function M.merge(a, b)
  local out = M.new()
  for k, v in pairs(a) do
    if type(k) == "number" then
      out:push(v)
    end
  end
  for _, v in ipairs(b) do
    out:push(v)
  end
  insert(out, 0)
  if inspect then inspect(out) end
  return out
end

return M
