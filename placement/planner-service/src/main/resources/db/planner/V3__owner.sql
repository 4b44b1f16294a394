-- Re-placements pushed (issue 34): the cloud client a request named to be told when its job is placed again.
ALTER TABLE placement_requests ADD COLUMN owner text;
