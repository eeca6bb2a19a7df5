//! The course's own formats and checks: its answer format and the grader of a class's answers.

pub mod course_io;
pub mod grade;
