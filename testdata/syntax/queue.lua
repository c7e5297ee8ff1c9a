-- A FIFO queue.
local Queue = {}
Queue.__index = Queue

local MAX = 100
DEBUG = false

--- Creates an empty queue.
function Queue.new()
  return setmetatable({ first = 1, last = 0, items = {} }, Queue)
end

function Queue:push(v)
  if self.last - self.first >= MAX then
    error("full")
  end
  self.last = self.last + 1
  self.items[self.last] = v
end

function Queue:pop()
  local v = self.items[self.first]
  self.items[self.first] = nil
  self.first = self.first + 1
  return v
end

local function trace(msg)
  if DEBUG then print(msg) end
end

local size = function(q)
  return q.last - q.first + 1
end

function dump(q)
  for i = q.first, q.last do
    trace(q.items[i])
  end
end

Queue.size = size

return Queue
