@echo off
rem Starts cortex from this self-contained runtime image on Windows: its own Java runtime, no JDK
rem needed. CORTEX_JAVA_OPTS adds JVM options (and leaves the ahead-of-time cache out);
rem CORTEX_AOT=0 turns the cache off.
setlocal
set "_cortex_image=%~dp0.."
set "CORTEX_LAUNCHER=%~f0"
set _cortex_opts=-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.3 -XX:-UsePerfData -Xss1m -Xlog:disable -Xlog:all=warning:stderr
rem release/build sets this to the flag that lets the Temporal runtime's libraries use
rem sun.misc.Unsafe without a warning, when the image's Java has it (23+).
set _cortex_unsafe=
if defined _cortex_unsafe set _cortex_opts=%_cortex_opts% %_cortex_unsafe%
if defined CORTEX_JAVA_OPTS goto plain
if "%CORTEX_AOT%"=="0" goto plain
if not exist "%_cortex_image%\lib\cortex\cortex.aot" goto plain
"%_cortex_image%\bin\java.exe" %_cortex_opts% "-XX:AOTCache=%_cortex_image%\lib\cortex\cortex.aot" -jar "%_cortex_image%\lib\cortex\cortex.jar" %*
exit /b %ERRORLEVEL%
:plain
"%_cortex_image%\bin\java.exe" %_cortex_opts% %CORTEX_JAVA_OPTS% -jar "%_cortex_image%\lib\cortex\cortex.jar" %*
exit /b %ERRORLEVEL%
