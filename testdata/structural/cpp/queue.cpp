// A small work queue: moves jobs in and out, as real C++ does.
#include <deque>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace work {

struct Job {
    std::string name;
    std::vector<int> args;
};

class Queue {
public:
    void push(Job job) {
        std::lock_guard<std::mutex> lock(mu_);
        jobs_.push_back(std::move(job));
    }

    bool pop(Job &out) {
        std::lock_guard<std::mutex> lock(mu_);
        if (jobs_.empty()) {
            return false;
        }
        out = std::move(jobs_.front());
        jobs_.pop_front();
        return true;
    }

    std::deque<Job> drain() {
        std::lock_guard<std::mutex> lock(mu_);
        std::deque<Job> all = std::move(jobs_);
        jobs_.clear();
        return all;
    }

private:
    std::mutex mu_;
    std::deque<Job> jobs_;
};

Job make_job(std::string name, std::vector<int> args) {
    Job j{std::move(name), std::move(args)};
    return j;
}

void swap_names(Job &a, Job &b) {
    std::string t = std::move(a.name);
    a.name = std::move(b.name);
    b.name = std::move(t);
    std::swap(a.args, b.args);
}

}  // namespace work
