# frozen_string_literal: true

require "set"

DEFAULT_SIZE = 16

# Jobs: a syntax fixture.
module Jobs
  VERSION = "2.1"

  # A bounded queue.
  class Queue
    include Enumerable

    attr_reader :size

    def initialize(size = DEFAULT_SIZE)
      @size = size
      @items = []
    end

    # Adds a job.
    def push(job)
      raise ArgumentError, "full" if @items.length >= @size

      @items << job
      self
    end

    def each(&block)
      @items.each(&block)
    end

    def self.build(*jobs)
      q = new
      jobs.each { |j| q.push(j) }
      q
    end

    class Job
      def run
        yield self if block_given?
      end
    end

    class << self
      def default
        @default ||= new
      end
    end
  end

  def self.run_all(queue)
    queue.each(&:run)
  end
end

def helper(x)
  x * 2
end
